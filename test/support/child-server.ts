import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USER, loginToken, type TestServer } from './server.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface SpawnedServer {
  child: ChildProcess;
  /** Resolves to the address once printed; rejects (with the output) if the process exits first. */
  url: Promise<string>;
  /** Resolves to the exit code once the process is gone. */
  exited: Promise<number | null>;
  /** Everything the process printed so far. */
  output: () => string;
}

/**
 * Spawns the real headless entry point from source (`tsx server/main.ts`; `npm start` runs it
 * built) on 127.0.0.1 and a free port, configured only through PATH, HOME and the given (MELON_*)
 * variables. With `trimOutput`, a long output keeps its start and the last few KB only.
 */
export function spawnServer(env: NodeJS.ProcessEnv, { trimOutput = false } = {}): SpawnedServer {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, MELON_HOST: '127.0.0.1', MELON_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      // Request lines are many; keep the start of the output and the last few KB only.
      if (trimOutput && text.length > 64_000) text = text.slice(0, 8_000) + text.slice(-16_000);
      text += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(text);
      if (match) resolve(match[1]!);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => reject(new Error(`exited early with ${code}: ${text}`)));
  });
  return { child, url, exited, output: () => text };
}

export interface ChildServer {
  url: string;
  child: ChildProcess;
  /** Everything the process printed so far. */
  output: () => string;
  /** SIGKILL: no shutdown code runs. Resolves once the process is gone. */
  kill9: () => Promise<void>;
  /** SIGTERM (a clean shutdown); resolves to the exit code. */
  stop: () => Promise<number | null>;
}

/**
 * Starts the server with `spawnServer` (a pinned zone, no reachable release server, trimmed
 * output); resolves once it prints its address.
 */
export function startChildServer(env: Record<string, string>, timeoutMs = 60_000): Promise<ChildServer> {
  const server = spawnServer(
    {
      TZ: process.env.TZ ?? 'UTC',
      MELON_RELEASES_URL: 'http://127.0.0.1:9',
      MELON_LISTENBRAINZ_URL: 'http://127.0.0.1:9',
      ...env,
    },
    { trimOutput: true },
  );
  const { child, exited, output } = server;
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  return new Promise<ChildServer>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start within ${timeoutMs} ms: ${output()}`));
    }, timeoutMs);
    server.url.then(
      (url) => {
        clearTimeout(timer);
        resolve({
          url,
          child,
          output,
          kill9: async () => {
            if (!gone()) child.kill('SIGKILL');
            await exited;
          },
          stop: async () => {
            if (!gone()) child.kill('SIGTERM');
            return exited;
          },
        });
      },
      () => undefined,
    );
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening: ${output()}`));
    });
  });
}

/** A child server with its Admin signed in, and a `call` that sends a token as a TestServer's does. */
export interface SignedInChild {
  server: ChildServer;
  call: TestServer['call'];
  adminToken: string;
}

/**
 * Starts a child server with `root/data` as its data folder over the music folder `music`, with the
 * test servers' Admin (ADMIN_USER), and signs that Admin in.
 */
export async function startChildAsAdmin(
  root: string,
  music: string,
  env: Record<string, string> = {},
): Promise<SignedInChild> {
  const server = await startChildServer({
    MELON_DATA_DIR: join(root, 'data'),
    MELON_LIBRARY: music,
    MELON_ADMIN_USER: ADMIN_USER,
    MELON_ADMIN_PASSWORD: ADMIN_PASSWORD,
    ...env,
  });
  const call: TestServer['call'] = (path, init = {}) => {
    const { token, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (token) headers.set('Authorization', `Bearer ${token}`);
    return fetch(server.url + path, { ...rest, headers });
  };
  try {
    return { server, call, adminToken: await loginToken(call, ADMIN_USER, ADMIN_PASSWORD) };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** A signed-in child server of a whole test file, and the folder it runs over. */
export interface ChildOfFile extends SignedInChild {
  /** The folder holding the server's data (`data/`) and music (`music/`). */
  root: string;
}

/**
 * A child server with its Admin signed in, for a whole test file: a fresh folder `root` with an empty
 * `music/`, which `prepare` fills (and may return more environment) before the server starts, all
 * within `timeoutMs`; stopped and removed after the file's last test. Filled in by the beforeAll hook.
 */
export function useChildAsAdmin(
  prefix: string,
  prepare: (folders: { root: string; music: string }) => Promise<Record<string, string> | void> = () =>
    Promise.resolve(),
  timeoutMs = 120_000,
): ChildOfFile {
  const child = { root: '' } as ChildOfFile;
  beforeAll(async () => {
    const root = await mkdtemp(join(tmpdir(), prefix));
    child.root = root;
    const music = join(root, 'music');
    await mkdir(music);
    const env = (await prepare({ root, music })) ?? {};
    Object.assign(child, await startChildAsAdmin(root, music, env));
  }, timeoutMs);
  afterAll(async () => {
    await child.server?.stop();
    if (child.root) await rm(child.root, { recursive: true, force: true });
  });
  return child;
}
