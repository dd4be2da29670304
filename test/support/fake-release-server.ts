import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach } from 'vitest';

/**
 * A stand-in for the GitHub Releases API and its download host, on 127.0.0.1 and a free port.
 * Serves the API shape (`/repos/{o}/{r}/releases/latest`, `/releases`, and the `/api/v3/...` form
 * electron-updater uses for a custom host), the Atom feed electron-updater reads, electron-builder
 * manifests per platform and the installer files themselves.
 */

export type FakeMode = 'ok' | 'error500' | 'hang' | 'garbage' | 'notFound' | 'badShape';

export interface FakeRelease {
  tag: string;
  body?: string;
  prerelease?: boolean;
  draft?: boolean;
  /** Installer bytes; the same content is served under each platform's file name. */
  binary?: Buffer;
  /** Publish a manifest whose sha512 does not match the file. */
  wrongSha?: boolean;
  /** Publish a manifest whose size does not match the file. */
  wrongSize?: boolean;
  /** Leave the manifests out of the assets. */
  noManifests?: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
}

export const OWNER = 'melon-music';
export const REPO = 'melon';

/** File names electron-builder would publish for `version`. */
export function installerNames(version: string) {
  return {
    exe: `Melon-Setup-${version}.exe`,
    dmg: `Melon-${version}.dmg`,
    zip: `Melon-${version}-mac.zip`,
    appImage: `Melon-${version}.AppImage`,
    appImageArm: `Melon-${version}-arm64.AppImage`,
    deb: `melon_${version}_amd64.deb`,
  };
}

export const sha512Base64 = (data: Buffer) => createHash('sha512').update(data).digest('base64');

const versionOf = (tag: string) => tag.replace(/^v/, '');

export function defaultBinary(version: string, size = 64 * 1024): Buffer {
  const seed = Buffer.from(`melon installer ${version}\n`);
  const out = Buffer.alloc(size);
  for (let i = 0; i < size; i++) out[i] = seed[i % seed.length]!;
  return out;
}

export class FakeReleaseServer {
  releases: FakeRelease[] = [];
  mode: FakeMode = 'ok';
  /** When set, downloads of installer files are sent in chunks with a pause between them. */
  slowDownload: { chunkSize: number; delayMs: number } | null = null;
  /** When set, the installer download fails with this HTTP status. */
  downloadStatus: number | null = null;
  readonly requests: RecordedRequest[] = [];
  private readonly hanging = new Set<ServerResponse>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<FakeReleaseServer> {
    let self: FakeReleaseServer | null = null;
    const server = createServer((req, res) => self!.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    self = new FakeReleaseServer(server, `http://127.0.0.1:${port}`);
    return self;
  }

  get host(): string {
    return new URL(this.url).host;
  }

  /** Requests whose path starts with `prefix` (all when omitted). */
  count(prefix = ''): number {
    return this.requests.filter((request) => request.path.startsWith(prefix)).length;
  }

  /** API requests only (what the rate limit counts). */
  apiCount(): number {
    return this.requests.filter((r) => r.path.startsWith('/repos/') || r.path.startsWith('/api/v3/')).length;
  }

  reset(): void {
    this.releases = [];
    this.mode = 'ok';
    this.slowDownload = null;
    this.downloadStatus = null;
    this.requests.length = 0;
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Where a release's asset is downloaded from (GitHub's browser_download_url form). */
  assetUrl(tag: string, name: string): string {
    return `${this.url}/${OWNER}/${REPO}/releases/download/${tag}/${name}`;
  }

  binaryOf(release: FakeRelease): Buffer {
    return release.binary ?? defaultBinary(versionOf(release.tag));
  }

  manifest(release: FakeRelease, manifestName: string): string {
    const version = versionOf(release.tag);
    const names = installerNames(version);
    const binary = this.binaryOf(release);
    const sha = release.wrongSha ? sha512Base64(Buffer.from('something else')) : sha512Base64(binary);
    const size = release.wrongSize ? binary.length + 1 : binary.length;
    const files: string[] =
      manifestName === 'latest.yml'
        ? [names.exe]
        : manifestName === 'latest-mac.yml'
          ? [names.zip, names.dmg]
          : manifestName === 'latest-linux-arm64.yml'
            ? [names.appImageArm]
            : [names.appImage, names.deb];
    const lines = [`version: ${version}`, 'files:'];
    for (const file of files) lines.push(`  - url: ${file}`, `    sha512: ${sha}`, `    size: ${size}`);
    lines.push(`path: ${files[0]}`, `sha512: ${sha}`, `releaseDate: '2026-11-01T12:00:00.000Z'`, '');
    return lines.join('\n');
  }

  private assetsOf(release: FakeRelease) {
    const names = Object.values(installerNames(versionOf(release.tag)));
    const manifests = release.noManifests
      ? []
      : ['latest.yml', 'latest-mac.yml', 'latest-linux.yml', 'latest-linux-arm64.yml'];
    const size = this.binaryOf(release).length;
    return [...manifests, ...names].map((name, i) => ({
      id: i + 1,
      name,
      size: name.endsWith('.yml') ? Buffer.byteLength(this.manifest(release, name)) : size,
      browser_download_url: this.assetUrl(release.tag, name),
    }));
  }

  private json(release: FakeRelease) {
    return {
      tag_name: release.tag,
      name: release.tag,
      body: release.body ?? '',
      draft: release.draft ?? false,
      prerelease: release.prerelease ?? false,
      html_url: `${this.url}/${OWNER}/${REPO}/releases/tag/${release.tag}`,
      assets: this.assetsOf(release),
    };
  }

  /** GitHub's "latest": the newest non-draft, non-prerelease release (first in the list). */
  private latest(): FakeRelease | undefined {
    return this.releases.find((release) => !release.draft && !release.prerelease);
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', this.url);
    const path = url.pathname;
    this.requests.push({ method: req.method ?? 'GET', path: path + url.search, headers: req.headers });

    const download = new RegExp(`^/${OWNER}/${REPO}/releases/download/([^/]+)/([^/]+)$`).exec(path);
    if (download)
      return this.serveDownload(decodeURIComponent(download[1]!), decodeURIComponent(download[2]!), res);
    if (path === `/${OWNER}/${REPO}/releases.atom`) return this.serveAtom(res);

    const api = path.replace(/^\/api\/v3/, '');
    const base = `/repos/${OWNER}/${REPO}/releases`;
    if (api !== `${base}/latest` && api !== base) return this.send(res, 404, { message: 'Not Found' });
    switch (this.mode) {
      case 'error500':
        return this.send(res, 500, { message: 'Server Error' });
      case 'hang':
        this.hanging.add(res);
        res.on('close', () => this.hanging.delete(res));
        return;
      case 'garbage':
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end('{"tag_name": "v1.3.0", "assets": [tru');
        return;
      case 'badShape':
        return this.send(res, 200, api === base ? { not: 'a list' } : { tag_name: 42, assets: 'none' });
      case 'notFound':
        return this.send(res, 404, { message: 'Not Found' });
      case 'ok':
        break;
    }
    if (api === base)
      return this.send(
        res,
        200,
        this.releases.filter((r) => !r.draft).map((r) => this.json(r)),
      );
    const latest = this.latest();
    if (!latest) return this.send(res, 404, { message: 'Not Found' });
    return this.send(res, 200, this.json(latest));
  }

  private serveAtom(res: ServerResponse): void {
    const entries = this.releases
      .filter((release) => !release.draft)
      .map(
        (release) =>
          `<entry><id>tag:github.com,2008:Repository/1/${release.tag}</id>` +
          `<link rel="alternate" type="text/html" href="${this.url}/${OWNER}/${REPO}/releases/tag/${release.tag}"/>` +
          `<title>${release.tag}</title><content type="html">${escapeXml(release.body ?? '')}</content></entry>`,
      );
    res.writeHead(200, { 'Content-Type': 'application/atom+xml' });
    res.end(
      `<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom">${entries.join('')}</feed>`,
    );
  }

  private serveDownload(tag: string, name: string, res: ServerResponse): void {
    const release = this.releases.find((candidate) => candidate.tag === tag);
    if (!release) return this.send(res, 404, { message: 'Not Found' });
    if (name.endsWith('.yml')) {
      if (release.noManifests) return this.send(res, 404, { message: 'Not Found' });
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
      res.end(this.manifest(release, name));
      return;
    }
    if (!Object.values(installerNames(versionOf(tag))).includes(name)) {
      return this.send(res, 404, { message: 'Not Found' });
    }
    if (this.downloadStatus !== null) return this.send(res, this.downloadStatus, { message: 'nope' });
    const binary = this.binaryOf(release);
    res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': binary.length });
    const slow = this.slowDownload;
    if (!slow) {
      res.end(binary);
      return;
    }
    let offset = 0;
    const next = () => {
      if (res.destroyed) return;
      if (offset >= binary.length) {
        res.end();
        return;
      }
      res.write(binary.subarray(offset, offset + slow.chunkSize));
      offset += slow.chunkSize;
      setTimeout(next, slow.delayMs);
    };
    next();
  }

  private send(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  }
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"]/g, (ch) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[ch]!);
}

/** One fake release server for the calling test file: reset before each test, closed after the file. */
export function fakeReleasesPerFile(): { readonly server: FakeReleaseServer } {
  let server: FakeReleaseServer | undefined;
  beforeAll(async () => {
    server = await FakeReleaseServer.start();
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => {
    server?.reset();
  });
  return {
    get server() {
      if (!server) throw new Error('the fake release server is not started yet');
      return server;
    },
  };
}
