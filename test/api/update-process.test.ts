import type { ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_VERSION } from '../../server/config.js';
import {
  defaultBinary,
  FakeReleaseServer,
  installerNames,
  OWNER,
  REPO,
} from '../support/fake-release-server.js';
import { spawnServer } from '../support/child-server.js';

/**
 * The whole update in a real `npm start` process: check, download, verify, answer 200, flush,
 * start the installer detached and exit 0. The "installer" is a tiny script recording its argv.
 */

const PASSWORD = 'update-test-password';

let fake: FakeReleaseServer;
let dir: string;
beforeAll(async () => {
  fake = await FakeReleaseServer.start();
  dir = await mkdtemp(join(tmpdir(), 'melon-update-proc-'));
});
afterAll(async () => {
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

async function waitForFile(path: string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await stat(path).catch(() => null)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${path} did not appear`);
}

function nextVersion(version: string): string {
  const [major, minor] = version.split('.').map(Number);
  return `${major}.${(minor ?? 0) + 1}.0`;
}

describe('update-melon in a headless server process', () => {
  let child: ChildProcess | null = null;
  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  /**
   * Starts `npm start`'s entry over folders of its own, with an installer program that writes
   * `written` (a JavaScript expression) to `argvFile` when it runs, and signs the Admin in.
   */
  async function startWithFakeInstaller(name: string, written: string) {
    const dataDir = join(dir, `data-${name}`);
    const library = join(dir, `music-${name}`);
    await mkdir(library, { recursive: true });
    const argvFile = join(dir, `${name}-argv.json`);
    const script = join(dir, `${name}-installer.mjs`);
    await writeFile(
      script,
      `import { writeFileSync } from 'node:fs';\n` +
        `writeFileSync(${JSON.stringify(argvFile)}, ${written});\n`,
    );
    const server = spawnServer({
      MELON_DATA_DIR: dataDir,
      MELON_LIBRARY: library,
      MELON_ADMIN_PASSWORD: PASSWORD,
      MELON_RELEASES_URL: fake.url,
      MELON_RELEASES_REPO: `${OWNER}/${REPO}`,
      MELON_INSTALL_COMMAND: `"${process.execPath}" "${script}"`,
    });
    child = server.child;
    const url = await server.url;
    const login = await fetch(`${url}/auth/login?username=admin&password=${PASSWORD}`);
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };
    return { server, url, dataDir, argvFile, auth: { Authorization: `Bearer ${token}` } };
  }

  it('downloads and verifies the update, answers 200, runs the installer with the file and exits 0', async () => {
    const version = nextVersion(APP_VERSION);
    fake.releases = [{ tag: `v${version}`, body: '## New' }];
    const { server, url, dataDir, argvFile, auth } = await startWithFakeInstaller(
      'good',
      'JSON.stringify(process.argv.slice(2))',
    );

    const check = await fetch(`${url}/api/settings/check-for-updates`, { headers: auth });
    expect(await check.json()).toMatchObject({
      UpdateAvailable: true,
      CurrentVersion: APP_VERSION,
      LatestVersion: version,
      ReleaseNotes: '## New',
      Schedule: 'daily',
      LastCheckFailed: false,
    });

    const update = await fetch(`${url}/api/settings/update-melon`, { method: 'POST', headers: auth });
    expect(update.status).toBe(200);
    expect(await update.json()).toEqual({ status: 'installing', version });

    expect(await server.exited).toBe(0);
    await waitForFile(argvFile, 10_000);
    const downloaded = join(dataDir, 'updates', installerNames(version).appImage);
    const expectedFile = process.platform === 'linux' ? downloaded : undefined;
    const argv = JSON.parse(await readFile(argvFile, 'utf8')) as string[];
    expect(argv).toHaveLength(1);
    if (expectedFile) expect(argv[0]).toBe(expectedFile);
    expect((await readFile(argv[0]!)).equals(defaultBinary(version))).toBe(true);
    // The check and the update shared the cached release: one API call.
    expect(fake.apiCount()).toBe(1);
    expect(server.output()).toMatch(/installer started/);
  });
  it('refuses a download with a wrong checksum: 400 update_failed, nothing run, the server keeps serving', async () => {
    fake.reset();
    const version = nextVersion(APP_VERSION);
    fake.releases = [{ tag: `v${version}`, wrongSha: true }];
    const { server, url, dataDir, argvFile, auth } = await startWithFakeInstaller('bad', "'ran'");
    const update = await fetch(`${url}/api/settings/update-melon`, { method: 'POST', headers: auth });
    expect(update.status).toBe(400);
    expect(await update.json()).toMatchObject({ code: 'update_failed' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await stat(argvFile).catch(() => null)).toBeNull();
    expect(await readdir(join(dataDir, 'updates'))).toEqual([]);
    expect((await fetch(`${url}/api/health`)).status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });
});
