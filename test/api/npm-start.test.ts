import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCommand } from '../support/run-command.js';

// `npm start` builds dist/ and runs it; these tests signal the processes a supervisor would start.

let dataDir: string;
/** Servers a failing test could leave behind (the bug under test orphans them). */
const leftovers: number[] = [];
/** Servers to stop even when a test fails before stopping them. */
const stopLater: ChildProcess[] = [];
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'melon-npm-start-'));
});
afterAll(async () => {
  for (const pid of leftovers) if (isRunning(pid)) process.kill(pid, 'SIGKILL');
  for (const child of stopLater)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
});

const serverEnv = (folder: string) => ({
  MELON_DATA_DIR: folder,
  // Beside the data folder, not inside it: Melon refuses either inside the other. Never made.
  MELON_LIBRARY: `${folder}-music`,
  MELON_HOST: '127.0.0.1',
  MELON_PORT: '0',
  MELON_RELEASES_URL: 'http://127.0.0.1:9',
  MELON_ADMIN_PASSWORD: 'npm start password',
  TZ: 'UTC',
});

/** Spawns `command`; resolves to its address once it prints it, with its exit and output. */
function start(command: string, args: readonly string[], env: NodeJS.ProcessEnv) {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(text);
      if (match) resolve(match[1]!);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then(({ code }) => reject(new Error(`exited early with ${code}: ${text}`)));
  });
  return { child, url, exited, output: () => text };
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A script for the built server's modules: writes a play log of 3,000 plays at the path it is given,
 * reads its rows with readRowsInThread, and prints the rows the worker read, the rows handed over and
 * what it logged (a worker that cannot start says so there, and the rows are left to the caller).
 */
const ROW_THREAD_READ = `
  import { writeFileSync } from 'node:fs';
  const dist = (module) => import(new URL(module, ${JSON.stringify(pathToFileURL(join(ROOT, 'dist', 'server')).href + '/')}).href);
  const { HEADER, playLine, snapshotLine, snapshotText } = await dist('store/play-log-codec.js');
  const { readRowsInThread } = await dist('store/play-log-row-thread.js');
  const { LogSnapshots } = await dist('store/play-log-snapshots.js');
  const { createMemoryLogger } = await dist('logger.js');
  const path = process.argv[2];
  const snapshot = { trackId: 't1', albumId: null, artistIds: [], genres: [], durationMs: 1000,
    trackName: 'One', albumName: null, artistNames: [] };
  let text = HEADER + snapshotLine(0, snapshotText(snapshot));
  for (let i = 0; i < 3000; i += 1) {
    text += playLine({ ...snapshot, id: 'p' + i, userId: 'u', device: null, type: 'play',
      at: Date.UTC(2024, 0, 1) + i * 1000, explicitAt: false }, 0);
  }
  writeFileSync(path, text);
  const logger = createMemoryLogger();
  let batches = 0;
  const read = await readRowsInThread({ path, logger, startAt: HEADER.length, endAt: null,
    fileBytes: text.length, snapshots: new LogSnapshots(), onRows: (batch) => (batches += batch.count) });
  console.log(JSON.stringify({ rows: read?.rows, batches, lines: logger.lines }));
`;

describe('npm start', () => {
  it('stops the server within 5 s when the npm process gets SIGTERM: port closed, lock removed', async () => {
    const npm = start('npm', ['start'], serverEnv(dataDir));
    const url = await npm.url;
    // The server is npm's own child (sh replaced by `exec`), not a grandchild a signal cannot reach.
    const lock = JSON.parse(await readFile(join(dataDir, 'melon.lock'), 'utf8')) as { pid: number };
    leftovers.push(lock.pid);
    expect(lock.pid).not.toBe(npm.child.pid);
    expect((await fetch(`${url}/api/health`)).status).toBe(200);
    // It runs with the memory and thread settings README's service unit repeats.
    const argv = (await readFile(`/proc/${lock.pid}/cmdline`, 'utf8')).split('\0');
    expect(argv).toContain('--max-old-space-size=1024');
    expect(argv).toContain('--max-semi-space-size=4');
    expect(argv).toContain('--initial-old-space-size=96');
    expect(argv).toContain('--v8-pool-size=1');
    const environment = (await readFile(`/proc/${lock.pid}/environ`, 'utf8')).split('\0');
    expect(environment).toContain('MALLOC_MMAP_THRESHOLD_=131072');

    const started = Date.now();
    npm.child.kill('SIGTERM');
    const { code } = await npm.exited;
    // npm waits for its child; the server must be gone too, not orphaned.
    while (isRunning(lock.pid) && Date.now() - started < 5_000) await new Promise((r) => setTimeout(r, 20));
    const stoppedMs = Date.now() - started;
    expect(isRunning(lock.pid)).toBe(false);
    expect(stoppedMs).toBeLessThan(5_000);
    expect(code).toBe(0);
    expect(npm.output()).toContain('shutting down signal=SIGTERM');
    await expect(fetch(`${url}/api/health`)).rejects.toThrow();
    await expect(readFile(join(dataDir, 'melon.lock'))).rejects.toThrow(/ENOENT/);
  }, 90_000);

  it('runs built without tsx or esbuild: serves /admin, and the `melon` bin resets a password', async () => {
    // The previous test built dist/; build again so this test also stands alone.
    const built = await runCommand('npm', ['run', '--silent', 'build'], {});
    expect(built.code, built.stderr).toBe(0);
    const hooks = await mkdtemp(join(tmpdir(), 'melon-no-tsx-'));
    try {
      await writeFile(
        join(hooks, 'hooks.mjs'),
        `export async function resolve(specifier, context, next) {
          if (/^(tsx|esbuild)(\\/|$)/.test(specifier)) throw new Error('blocked at run time: ' + specifier);
          return next(specifier, context);
        }`,
      );
      await writeFile(
        join(hooks, 'block.mjs'),
        `import { register } from 'node:module';\nregister(${JSON.stringify(new URL('file://' + join(hooks, 'hooks.mjs')).href)});`,
      );
      const block = ['--import', join(hooks, 'block.mjs')];
      // The block itself works: loading esbuild fails with it.
      const probe = await runCommand(process.execPath, [...block, '-e', "await import('esbuild')"], {});
      expect(probe.stderr).toContain('blocked at run time: esbuild');

      const folder = join(hooks, 'data');
      const server = start(process.execPath, [...block, 'dist/server/main.js'], serverEnv(folder));
      stopLater.push(server.child);
      const url = await server.url;
      const page = await fetch(`${url}/admin`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<script');
      const script = await fetch(`${url}/admin/app.js`);
      expect(script.status).toBe(200);
      expect((await script.text()).length).toBeGreaterThan(1000);
      expect((await fetch(`${url}/admin/style.css`)).status).toBe(200);
      server.child.kill('SIGTERM');
      expect((await server.exited).code).toBe(0);
      expect(server.output()).not.toContain('blocked at run time');

      // A large play log's rows are read in a worker thread, whose module the built server finds
      // beside its own (from the sources, esbuild bundles it): read a log that way, esbuild blocked.
      // A file, not -e: a worker starts with its parent's flags, and --input-type refuses it one.
      await writeFile(join(hooks, 'read-rows.mjs'), ROW_THREAD_READ);
      const reading = await runCommand(
        process.execPath,
        [...block, join(hooks, 'read-rows.mjs'), join(hooks, 'plays.jsonl')],
        {},
      );
      expect(reading.stderr).toBe('');
      expect(JSON.parse(reading.stdout)).toEqual({ rows: 3000, batches: 3000, lines: [] });

      // The `melon` command (package.json "bin") as npm links it: the file itself, run by its #! line.
      const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
        bin: { melon: string };
      };
      const reset = await runCommand(join(ROOT, pkg.bin.melon), ['reset-password', 'admin'], {
        MELON_DATA_DIR: folder,
        NODE_OPTIONS: block.join(' '),
      });
      expect(reset.stderr).toBe('');
      expect(reset.code).toBe(0);
      expect(reset.stdout).toMatch(/^New password for 'admin': [A-Za-z0-9]{20}\n/);
    } finally {
      await rm(hooks, { recursive: true, force: true });
    }
  }, 90_000);
});
