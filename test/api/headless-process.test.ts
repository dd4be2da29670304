import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnServer, type SpawnedServer } from '../support/child-server.js';

let dataDir: string;
afterEach(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** Sends the server `signal` and answers its exit code. */
async function stop(server: SpawnedServer, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  server.child.kill(signal);
  return server.exited;
}

/** Lets the process print what it prints just after its banner. */
const afterBanner = () => new Promise((resolve) => setTimeout(resolve, 200));

describe('npm start (headless server)', () => {
  it('prints its address and the generated Admin password once, and that password works', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'melon-proc-'));
    const first = spawnServer({ MELON_DATA_DIR: dataDir });
    const url = await first.url;
    await afterBanner();
    const password = /with the password (\S+)/.exec(first.output())?.[1];
    expect(password).toMatch(/^[A-Za-z0-9]{20}$/);
    const login = await fetch(`${url}/auth/login?username=admin&password=${password}`);
    expect(login.status).toBe(200);
    expect(await readFile(join(dataDir, 'users.json'), 'utf8')).not.toContain(password!);
    expect(first.output()).not.toContain(`password=${password}`);
    expect(await stop(first)).toBe(0);

    const second = spawnServer({ MELON_DATA_DIR: dataDir });
    await second.url;
    expect(second.output()).not.toMatch(/with the password/);
    expect(await stop(second, 'SIGINT')).toBe(0);
  });

  it('names a music folder that is missing in its start banner, with the fix, and its log', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'melon-proc-'));
    // Beside the data folder, not inside it: Melon refuses either inside the other.
    const missing = `${dataDir}-unplugged-disk/Music`;
    const server = spawnServer({
      MELON_DATA_DIR: dataDir,
      MELON_ADMIN_PASSWORD: 'configured-pw',
      MELON_LIBRARY: missing,
    });
    await server.url;
    await afterBanner();
    const output = server.output();
    expect(output).toContain(`music folder unavailable: ${missing}`);
    expect(output).toMatch(/set MELON_LIBRARY to your music folder .*MELON_LIBRARY=\/srv\/music npm start/);
    // The log line (JSON) names it too, as a warning.
    expect(output.split('\n').some((line) => line.includes('WARN') && line.includes(missing))).toBe(true);
    expect(await stop(server)).toBe(0);
  });

  it('logs no request before its banner: its own warm-up is not a client', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'melon-proc-'));
    const server = spawnServer({ MELON_DATA_DIR: dataDir, MELON_ADMIN_PASSWORD: 'configured-pw' });
    const url = await server.url;
    expect((await fetch(`${url}/api/health`)).status).toBe(200);
    await afterBanner();
    const output = server.output();
    const banner = output.indexOf('is listening on');
    expect(banner).toBeGreaterThan(-1);
    const healthLines = output.split('\n').filter((line) => line.includes('/api/health'));
    // The client's request after the banner is logged; the server's own before it is not.
    expect(healthLines).toHaveLength(1);
    expect(output.indexOf('/api/health')).toBeGreaterThan(banner);
    expect(await stop(server)).toBe(0);
  });

  it('finishes an in-flight request on SIGTERM and exits 0 within 5 s', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'melon-proc-'));
    const server = spawnServer({ MELON_DATA_DIR: dataDir, MELON_ADMIN_PASSWORD: 'configured-pw' });
    const url = await server.url;
    const inFlight = fetch(`${url}/auth/login?username=admin&password=configured-pw`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const started = Date.now();
    server.child.kill('SIGTERM');
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(await server.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(server.output()).not.toContain('configured-pw');
  });

  it('refuses a second server on the same data folder, and starts after the first is killed -9', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'melon-lock-'));
    const env = { MELON_DATA_DIR: dataDir, MELON_ADMIN_PASSWORD: 'folder lock password 1' };
    const first = spawnServer(env);
    await first.url;
    // Another port (MELON_PORT=0), so only the data folder is shared.
    const second = spawnServer(env);
    await expect(second.url).rejects.toThrow(
      `The data folder ${dataDir} is in use by another Melon (process ${first.child.pid})`,
    );
    expect(second.child.exitCode).toBe(1);
    expect(second.output()).not.toMatch(/\n\s+at /);

    first.child.kill('SIGKILL');
    await first.exited;
    const third = spawnServer(env);
    await third.url;
    expect(await stop(third)).toBe(0);
    await expect(readFile(join(dataDir, 'melon.lock'))).rejects.toThrow(/ENOENT/);
  });

  it('says once that MELON_ADMIN_PASSWORD is ignored after the first start, without the password', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'melon-proc-'));
    const env = { MELON_DATA_DIR: dataDir, MELON_ADMIN_PASSWORD: 'the first password' };
    const notice = /MELON_ADMIN_PASSWORD is ignored: the Admin account exists already.*melon reset-password/g;
    const first = spawnServer(env);
    await first.url;
    expect(await stop(first)).toBe(0);
    expect(first.output()).not.toMatch(notice);

    const second = spawnServer({ ...env, MELON_ADMIN_PASSWORD: 'a later password' });
    await second.url;
    expect(await stop(second)).toBe(0);
    expect(second.output().match(notice)).toHaveLength(1);
    expect(second.output()).not.toContain('a later password');
  });

  it('loads neither the tag reader nor writer, the image library or the YAML reader until one is needed', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'melon-proc-'));
    // A module hook in the server's process notes every module it loads, in a file of its own.
    const hooks = `${dataDir}-hooks`;
    await mkdir(hooks);
    const loaded = join(hooks, 'loaded.txt');
    await writeFile(
      join(hooks, 'hook.mjs'),
      `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(${JSON.stringify(loaded)}, url + '\\n');
  return next(url, context);
}`,
    );
    await writeFile(
      join(hooks, 'register.mjs'),
      `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(hooks, 'hook.mjs')).href)});\n`,
    );
    try {
      const server = spawnServer({
        MELON_DATA_DIR: dataDir,
        MELON_ADMIN_PASSWORD: 'configured-pw',
        MELON_RELEASES_URL: 'http://127.0.0.1:9',
        NODE_OPTIONS: `--import=${pathToFileURL(join(hooks, 'register.mjs')).href}`,
      });
      const url = await server.url;
      const login = await fetch(`${url}/auth/login?username=admin&password=configured-pw`);
      expect(login.status).toBe(200);
      const { token } = (await login.json()) as { token: string };
      const artists = await fetch(`${url}/api/artists`, { headers: { authorization: `Bearer ${token}` } });
      expect(artists.status).toBe(200);
      expect(await stop(server)).toBe(0);
      const packages = new Set(
        (await readFile(loaded, 'utf8'))
          .split('\n')
          .map((line) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(line)?.[1])
          .filter(Boolean),
      );
      // The hook saw the server's own libraries load...
      expect(packages).toContain('koa');
      // ...and none of these, which only a scan, a picture edit, a resize or an update uses.
      for (const lazy of ['music-metadata', 'strtok3', 'node-taglib-sharp', 'sharp', 'yaml'])
        expect(packages).not.toContain(lazy);
    } finally {
      await rm(hooks, { recursive: true, force: true });
    }
  });

  it('refuses an invalid configuration with a clear message', async () => {
    const server = spawnServer({ MELON_DATA_DIR: join(tmpdir(), 'unused'), MELON_TOKEN_TTL: 'forever' });
    await expect(server.url).rejects.toThrow(
      'MELON_TOKEN_TTL=forever: must be a duration like 7d, 12h, 30m, 45s or a number of seconds',
    );
    expect(server.child.exitCode).toBe(1);
    expect(server.output()).not.toMatch(/\n\s+at /);
  });
});
