import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

/** The real `npm start` entry point, as a child process. */
function startHeadless(env: NodeJS.ProcessEnv): {
  child: ChildProcess;
  output: () => string;
  url: Promise<string>;
} {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, MELON_HOST: '127.0.0.1', MELON_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const url = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(text);
      if (match) resolve(match[1]!);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited early with ${code}: ${text}`)));
  });
  return { child, output: () => text, url };
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

let dataDir: string;
afterEach(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('npm start (headless server)', () => {
  it('prints its address and the generated Admin password once, and that password works', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'melon-proc-'));
    const first = startHeadless({ MELON_DATA_DIR: dataDir });
    const url = await first.url;
    await new Promise((resolve) => setTimeout(resolve, 200));
    const password = /with the password (\S+)/.exec(first.output())?.[1];
    expect(password).toMatch(/^[A-Za-z0-9]{20}$/);
    const login = await fetch(`${url}/auth/login?username=admin&password=${password}`);
    expect(login.status).toBe(200);
    expect(await readFile(join(dataDir, 'users.json'), 'utf8')).not.toContain(password!);
    expect(first.output()).not.toContain(`password=${password}`);
    first.child.kill('SIGTERM');
    expect(await exited(first.child)).toBe(0);

    const second = startHeadless({ MELON_DATA_DIR: dataDir });
    await second.url;
    expect(second.output()).not.toMatch(/with the password/);
    second.child.kill('SIGINT');
    expect(await exited(second.child)).toBe(0);
  });

  it('finishes an in-flight request on SIGTERM and exits 0 within 5 s', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'melon-proc-'));
    const server = startHeadless({ MELON_DATA_DIR: dataDir, MELON_ADMIN_PASSWORD: 'configured-pw' });
    const url = await server.url;
    const inFlight = fetch(`${url}/auth/login?username=admin&password=configured-pw`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const started = Date.now();
    server.child.kill('SIGTERM');
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(await exited(server.child)).toBe(0);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(server.output()).not.toContain('configured-pw');
  });

  it('refuses a second server on the same data folder, and starts after the first is killed -9', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'melon-lock-'));
    const env = { MELON_DATA_DIR: dataDir, MELON_ADMIN_PASSWORD: 'folder lock password 1' };
    const first = startHeadless(env);
    const firstExit = exited(first.child);
    await first.url;
    // Another port (MELON_PORT=0), so only the data folder is shared.
    const second = startHeadless(env);
    await expect(second.url).rejects.toThrow(
      `The data folder ${dataDir} is in use by another Melon (process ${first.child.pid})`,
    );
    expect(second.child.exitCode).toBe(1);
    expect(second.output()).not.toMatch(/\n\s+at /);

    first.child.kill('SIGKILL');
    await firstExit;
    const third = startHeadless(env);
    const thirdExit = exited(third.child);
    await third.url;
    third.child.kill('SIGTERM');
    expect(await thirdExit).toBe(0);
    await expect(readFile(join(dataDir, 'melon.lock'))).rejects.toThrow(/ENOENT/);
  });

  it('refuses an invalid configuration with a clear message', async () => {
    const server = startHeadless({ MELON_DATA_DIR: join(tmpdir(), 'unused'), MELON_TOKEN_TTL: 'forever' });
    await expect(server.url).rejects.toThrow(/MELON_TOKEN_TTL/);
  });
});
