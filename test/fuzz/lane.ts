/**
 * One fuzzing lane: a real server over its own copy of the fixture library and its own data folder,
 * fed requests one at a time so that each request's effect on the store is seen alone. Several
 * lanes run side by side in the fuzz test; they share nothing.
 */
import { readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ManualClock } from '../../server/clock.js';
import { MIX_IDS } from '../../server/contract/mixes.js';
import { makeUser, type TestUser } from '../factories/users.js';
import { copyFixtureLibrary, type FixtureCopy } from '../support/fixture-library.js';
import { KNOWN_PROBLEM_CODES } from '../support/problem-codes.js';
import { rawClient, type RawResponse } from '../support/raw-http.js';
import { postJson, startTestServer, type TestServer } from '../support/server.js';
import { TreeHasher, treeDiff } from '../support/tree-hash.js';
import type { FuzzRequest, PoolName } from './generators.js';
import { render, type RenderContext } from './render.js';

export const START = Date.UTC(2026, 10, 1, 12, 0, 0);
const LIMITED_PATHS = new Set(['/auth/login', '/auth/code-authenticate']);
/** GETs that may change the store when they succeed; every other GET, HEAD, OPTIONS… must not. */
const WRITING_GETS = new Set(['/auth/login', '/auth/invite', '/auth/code-authenticate']);

export interface FuzzRoute {
  method: string;
  path: string;
  access: readonly string[] | 'public';
  multipart: boolean;
  /** A multipart route's own upload limit, when it has one (history imports: 1 GiB). */
  uploadLimitBytes?: number | undefined;
}

export interface LaneReport {
  sent: number;
  failures: string[];
  statuses: Map<number, number>;
  codes: Map<string, number>;
  /** Per route: requests with the route's own method, those past auth and routing, 2xx and 429. */
  perRoute: Array<{ sent: number; reached: number; ok: number; limited: number }>;
  /** Responses that carried a Retry-After header. */
  retryAfter: number;
  storeChecked: number;
  clockMovedMs: number;
  unhandled: string[];
}

interface Outcome {
  status: number;
  code?: string;
}

export class Lane {
  private readonly clock = new ManualClock(START);
  private t!: TestServer;
  private fixtures!: FixtureCopy;
  private client!: ReturnType<typeof rawClient>;
  private ctx!: RenderContext;
  private user!: TestUser;
  private pass!: TestUser;
  private serverToken: { token: string; mintedAt: number } | undefined;
  private remade = 0;
  private limitedCalls = 0;
  private readonly pools: Record<PoolName, string[]> = {
    track: [],
    album: [],
    artist: [],
    playlist: [],
    collection: [],
    mix: [...MIX_IDS],
    user: [],
    victim: [],
    inviteCode: [],
    username: [],
    password: [],
  };

  /**
   * `holdClock`: never move the clock, so the login and invite-code limiters bite (limits.test.ts);
   * by default 16 minutes pass after every 9 requests to those endpoints.
   */
  constructor(
    private readonly name: string,
    private readonly options: { holdClock?: boolean } = {},
  ) {}

  /** The lane's server and the library folder it reads (for checks beside the fuzzing). */
  get testServer(): TestServer {
    return this.t;
  }

  get libraryDir(): string {
    return this.fixtures.library;
  }

  get routes(): FuzzRoute[] {
    return this.t.server.routes.map((route) => ({
      method: route.method,
      path: route.path,
      access: route.access,
      multipart: route.body === 'multipart',
      uploadLimitBytes: route.uploadLimitBytes,
    }));
  }

  async start(): Promise<void> {
    this.fixtures = await copyFixtureLibrary(`melon-fuzz-${this.name}-`);
    this.t = await startTestServer({ clock: this.clock, config: { libraryDirs: [this.fixtures.library] } });
    this.client = rawClient(this.t.url);
    const t = this.t;
    const pools = this.pools;
    this.user = await makeUser(t, { username: 'fuzz-user', password: 'fuzz user password' });
    this.pass = await makeUser(t, { role: 'Pass', username: 'fuzz-pass', password: 'fuzz pass password' });
    this.remember(this.user);
    this.remember(this.pass);
    for (let i = 0; i < 2; i += 1) {
      // Not signed in: each login costs a scrypt, and nobody uses a victim's token.
      const victim = { username: `victim-${i}`, password: `victim password ${i}` };
      const response = await postJson(t, '/api/users/create', victim, t.adminToken);
      const { id } = (await response.json()) as { id: string };
      pools.user.push(id);
      pools.victim.push(id);
      pools.username.push(victim.username);
      pools.password.push(victim.password);
    }
    pools.user.push((await this.json<{ userId: string }>('/auth/check')).userId);
    pools.username.push('admin');
    // The user's statistics are public, so other callers' reads of them succeed too.
    await postJson(t, '/api/users/settings', { publicStats: true }, this.user.token);

    pools.track = await this.ids('/api/tracks');
    pools.album = await this.ids('/api/albums');
    pools.artist = await this.ids('/api/artists');
    for (const kind of ['playlist', 'collection'] as const) {
      for (let i = 0; i < 2; i += 1) {
        const response = await postJson(
          t,
          `/api/${kind}s/create`,
          { name: `${kind} ${i}`, trackIds: pools.track.slice(0, 3) },
          this.user.token,
        );
        pools[kind].push(((await response.json()) as { id: string }).id);
      }
    }
    // Stored artwork, so deletions and reads have something to find.
    const png = join(this.fixtures.images, 'cover.png');
    const jpg = join(this.fixtures.images, 'back.jpg');
    for (const artist of pools.artist.slice(0, 2)) {
      await this.upload('/api/art/upload/artist-pfp', { id: artist }, png, 'image/png');
      await this.upload('/api/art/upload/artist-pfp', { id: artist }, jpg, 'image/jpeg');
      await this.upload('/api/art/upload/artist-banner', { id: artist }, png, 'image/png');
    }
    await this.upload('/api/art/upload/playlist-art', { id: pools.playlist[0]! }, png, 'image/png');
    await this.upload('/api/art/upload/collection-art', { id: pools.collection[0]! }, jpg, 'image/jpeg');
    await this.upload('/api/art/upload/default-art', {}, png, 'image/png');
    // Plays and ratings, so statistics have something to rank.
    for (const [i, track] of pools.track.entries()) {
      await postJson(t, '/api/stats/log-play', { id: track, device: 'Phone' }, this.user.token);
      await postJson(t, '/api/stats/rate-track', { id: track, rating: (i % 10) + 1 }, this.user.token);
    }

    const images = {
      png: await readFile(png),
      jpg: await readFile(jpg),
      webp: await readFile(join(this.fixtures.images, 'photo.webp')),
      notImage: await readFile(join(this.fixtures.images, 'not-an-image.png')),
    };
    this.ctx = {
      baseUrl: t.url,
      pools,
      now: () => this.clock.now(),
      images,
      routes: this.routes,
      authorization: (request) => this.authorization(request),
    };
  }

  async stop(): Promise<void> {
    this.client?.close();
    await this.t?.stop();
    if (this.fixtures) await rm(dirname(this.fixtures.library), { recursive: true, force: true });
  }

  /** Sends the requests in order and checks every answer and the store around it. */
  async run(requests: FuzzRequest[]): Promise<LaneReport> {
    const routes = this.routes;
    const hasher = new TreeHasher({ data: this.t.dataDir, library: this.fixtures.library });
    const report: LaneReport = {
      sent: 0,
      failures: [],
      statuses: new Map(),
      codes: new Map(),
      perRoute: routes.map(() => ({ sent: 0, reached: 0, ok: 0, limited: 0 })),
      storeChecked: 0,
      retryAfter: 0,
      clockMovedMs: 0,
      unhandled: [],
    };
    // The store as the last request left it; taken again only after the lane's own housekeeping.
    let before = hasher.snapshot();
    for (const request of requests) {
      const route = request.route >= 0 ? routes[request.route] : undefined;
      const path = route?.path;
      // Keep the limiters from turning the run into 429s: 9 tries, then 16 minutes pass.
      if (path && LIMITED_PATHS.has(path) && ++this.limitedCalls % 9 === 0 && !this.options.holdClock)
        this.clock.advance(16 * 60_000);
      if (request.principal === 'server' && (await this.ensureServerToken())) before = hasher.snapshot();

      const wire = render(request, this.ctx);
      const fail = (text: string) => {
        if (report.failures.length < 40)
          report.failures.push(
            `[${this.name} #${report.sent}] ${wire.method} ${wire.path.slice(0, 160)}: ${text}`,
          );
      };
      report.sent += 1;
      let response: RawResponse;
      try {
        response = await this.client.send(wire);
      } catch (error) {
        fail(`no response: ${String(error)}`);
        before = hasher.snapshot();
        continue;
      }
      const outcome = check(wire.method, response, fail);
      report.statuses.set(outcome.status, (report.statuses.get(outcome.status) ?? 0) + 1);
      if (outcome.code) report.codes.set(outcome.code, (report.codes.get(outcome.code) ?? 0) + 1);
      if (response.headers['retry-after'] !== undefined) report.retryAfter += 1;
      const own =
        route && (request.method === route.method || (route.method === 'GET' && request.method === 'HEAD'));
      if (route && own) {
        const counts = report.perRoute[request.route]!;
        counts.sent += 1;
        if (outcome.status !== 401 && outcome.status !== 405 && outcome.code !== 'not_found')
          counts.reached += 1;
        if (outcome.status < 300) counts.ok += 1;
        if (outcome.status === 429) counts.limited += 1;
      }

      // A started scan writes library.json when it ends; let it end before looking at the store.
      if (path === '/api/library/scan' && outcome.status === 202) {
        await this.t.server.services.library.waitForIdle();
        // ...and then unmatched listens are tried against the new library.
        await this.t.server.services.history.idle();
      }
      // An accepted import runs in the background and writes its record as it goes.
      if (path === '/api/stats/import' && outcome.status === 202) await this.t.server.services.imports.idle();
      const after = hasher.snapshot();
      const refused = outcome.status >= 400;
      const safe = request.method !== 'POST' && !(path && WRITING_GETS.has(path));
      if (refused || safe) {
        if (refused) report.storeChecked += 1;
        const changed = treeDiff(before, after);
        if (changed.length > 0) fail(`${outcome.status} ${outcome.code ?? ''} changed ${changed.join(' ')}`);
      }
      before = (await this.learn(request, route, outcome, response)) ? hasher.snapshot() : after;
    }
    report.clockMovedMs = this.clock.now() - START;
    report.unhandled = this.t.logs.filter((line) => line.includes('unhandled error'));
    return report;
  }

  private remember(user: TestUser): void {
    this.pools.user.push(user.id);
    this.pools.username.push(user.username);
    this.pools.password.push(user.password);
  }

  private async json<T>(path: string): Promise<T> {
    const response = await this.t.call(path, { token: this.t.adminToken });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  }

  private async ids(path: string): Promise<string[]> {
    const page = await this.json<{ items: Array<{ id: string }> }>(`${path}?count=1000`);
    return page.items.map((item) => item.id);
  }

  private async upload(path: string, fields: Record<string, string>, file: string, type: string) {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.set(name, value);
    form.set('file', new Blob([await readFile(file)], { type }), 'image');
    const response = await this.t.call(path, { method: 'POST', body: form, token: this.t.adminToken });
    if (response.status !== 201) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  }

  private authorization(request: FuzzRequest): string | undefined {
    switch (request.principal) {
      case 'admin':
        return `Bearer ${this.t.adminToken}`;
      case 'user':
        return `Bearer ${this.user.token}`;
      case 'pass':
        return `Bearer ${this.pass.token}`;
      case 'server':
        return this.serverToken ? `Bearer ${this.serverToken.token}` : undefined;
      case 'none':
        return undefined;
      case 'garbage':
        return request.garbageToken;
    }
  }

  /**
   * A Server token (10 minutes, single use) from a fresh invite when the last one is spent or old.
   * True when it made one (which wrote an invite to the store).
   */
  private async ensureServerToken(): Promise<boolean> {
    if (this.serverToken && this.clock.now() - this.serverToken.mintedAt < 9 * 60_000) return false;
    this.serverToken = undefined;
    const invite = await this.t.call('/auth/invite', { token: this.t.adminToken });
    if (invite.status !== 200) return false; // five invites active: the Server principal sends no token
    const { code } = (await invite.json()) as { code: string };
    const exchange = await this.t.call(`/auth/code-authenticate?code=${code}`);
    if (exchange.status === 200)
      this.serverToken = {
        token: ((await exchange.json()) as { token: string }).token,
        mintedAt: this.clock.now(),
      };
    return true;
  }

  /**
   * Keeps the pools and principals current after a request changed the server's state. True when
   * it wrote to the store itself (a fresh principal).
   */
  private async learn(
    request: FuzzRequest,
    route: FuzzRoute | undefined,
    outcome: Outcome,
    response: RawResponse,
  ): Promise<boolean> {
    if (!route || outcome.status >= 300 || request.method !== route.method) return false;
    const body = parseObject(response.body);
    const pools = this.pools;
    switch (route.path) {
      case '/auth/invite':
        pools.inviteCode.push(String(body.code));
        return false;
      case '/api/users/create':
        pools.user.push(String(body.id));
        pools.victim.push(String(body.id));
        pools.username.push(String(body.username));
        if (request.principal === 'server') this.serverToken = undefined;
        return false;
      case '/api/playlists/create':
        pools.playlist.push(String(body.id));
        return false;
      case '/api/collections/create':
        pools.collection.push(String(body.id));
        return false;
      case '/api/users/delete':
      case '/api/users/change-password': {
        // The fuzzer may have revoked its own User or Pass account: make a fresh one.
        let wrote = false;
        for (const role of ['user', 'pass'] as const) {
          const check = await this.t.call('/auth/check', { token: this[role].token });
          if (check.status !== 401) continue;
          this.remade += 1;
          this[role] = await makeUser(this.t, {
            role: role === 'user' ? 'User' : 'Pass',
            username: `fuzz-${role}-again-${this.remade}`,
            password: `fuzz ${role} password ${this.remade}`,
          });
          this.remember(this[role]);
          wrote = true;
        }
        return wrote;
      }
      default:
        return false;
    }
  }
}

/** Status, problem-document shape and code of one response. */
function check(method: string, response: RawResponse, fail: (text: string) => void): Outcome {
  const { status } = response;
  if (status >= 500) fail(`server error ${status}: ${response.body.toString().slice(0, 300)}`);
  if (status < 400) return { status };
  const type = String(response.headers['content-type'] ?? '');
  if (!type.startsWith('application/problem+json')) {
    fail(`${status} with content-type '${type}'`);
    return { status };
  }
  if (method === 'HEAD') return { status };
  let body: { type?: unknown; title?: unknown; status?: unknown; code?: unknown; detail?: unknown };
  try {
    body = JSON.parse(response.body.toString()) as typeof body;
  } catch {
    fail(`${status} problem body is not JSON: ${response.body.toString().slice(0, 200)}`);
    return { status };
  }
  const code = typeof body.code === 'string' ? body.code : undefined;
  const shaped =
    body.status === status &&
    body.type === 'about:blank' &&
    typeof body.title === 'string' &&
    typeof body.detail === 'string';
  if (!shaped) fail(`malformed problem document ${JSON.stringify(body).slice(0, 300)}`);
  if (!code || !KNOWN_PROBLEM_CODES.has(code)) fail(`unknown problem code ${String(body.code)}`);
  return { status, code };
}

function parseObject(bytes: Buffer): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(bytes.toString());
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
