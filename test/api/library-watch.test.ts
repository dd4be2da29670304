import { copyFile, mkdir, mkdtemp, rename, rm, stat, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureFixtures, FORMATS_DIR } from '../../scripts/make-fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * The music folders as a user lives with them: files copied in or deleted reach the library without
 * a manual scan (within 10 s), a folder that is missing is named at start (log, server-info), and a
 * folder that cannot be watched is rescanned periodically instead.
 */
let formats: string;
let base: string;
let t: TestServer | undefined;

beforeAll(async () => {
  formats = join(await ensureFixtures(), FORMATS_DIR);
  base = await mkdtemp(join(tmpdir(), 'melon-watch-'));
});
afterEach(async () => {
  await t?.stop();
  t = undefined;
});
afterAll(() => rm(base, { recursive: true, force: true }));

const WATCH = { watchOptions: { debounceMs: 200, maxWaitMs: 1_000, pollIntervalMs: 300 } };

async function trackPaths(server: TestServer): Promise<string[]> {
  const response = await server.call('/api/tracks', { token: server.adminToken });
  return ((await response.json()) as { items: Array<{ path: string }> }).items.map((i) => i.path).sort();
}

/** Polls until `check` holds; fails after `ms`. Returns how long it took. */
async function within(ms: number, what: string, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return Date.now() - started;
}

describe('watching the music folders', () => {
  it('adds a file copied in and removes a deleted one within 10 s, without a manual scan', async () => {
    const music = join(base, 'watched');
    await mkdir(join(music, 'Artist', 'Album'), { recursive: true });
    await copyFile(join(formats, 'flac.flac'), join(music, 'Artist', 'Album', '01 first.flac'));
    t = await startTestServer({ config: { libraryDirs: [music] }, library: WATCH });
    expect(await trackPaths(t)).toHaveLength(1);

    // Copied the way a file manager does: written under a temp name in a new folder, then renamed.
    const added = join(music, 'Other Artist', 'New Album', '02 second.mp3');
    await mkdir(join(music, 'Other Artist', 'New Album'), { recursive: true });
    await copyFile(join(formats, 'mp3-cbr.mp3'), `${added}.part`);
    await rename(`${added}.part`, added);
    const server = t;
    await within(10_000, 'the copied file', async () => (await trackPaths(server)).includes(added));

    await unlink(added);
    await within(10_000, 'the deleted file', async () => !(await trackPaths(server)).includes(added));
    expect(await trackPaths(server)).toEqual([join(music, 'Artist', 'Album', '01 first.flac')]);

    // A whole artist folder deleted.
    await rm(join(music, 'Artist'), { recursive: true });
    await within(10_000, 'the deleted folder', async () => (await trackPaths(server)).length === 0);
  });

  it('does not rewrite library.json when a change leaves the library as it was', async () => {
    const music = join(base, 'quiet');
    await mkdir(music, { recursive: true });
    await copyFile(join(formats, 'flac.flac'), join(music, 'a.flac'));
    t = await startTestServer({ config: { libraryDirs: [music] }, library: WATCH });
    const written = async () => (await stat(join(t!.dataDir, 'library.json'))).mtimeMs;
    const before = await written();
    await copyFile(join(formats, 'flac.flac'), join(music, 'notes.txt')); // not audio
    await new Promise((resolve) => setTimeout(resolve, 800)); // the debounced rescan runs
    await t.server.services.library.waitForIdle();
    expect(await written()).toBe(before);
    expect(t.logs.filter((line) => line.includes('library scan finished'))).toHaveLength(1);
  });
});

describe('a music folder that is missing', () => {
  it('is named at start: in the log, in server-info and by folderProblems()', async () => {
    const present = join(base, 'present');
    const missing = join(base, 'unplugged-disk');
    await mkdir(present, { recursive: true });
    t = await startTestServer({ config: { libraryDirs: [present, missing] } });
    expect(t.logs.filter((line) => line.includes('WARN music folder not available'))).toEqual([
      expect.stringContaining(missing),
    ]);
    expect(t.server.services.library.folderProblems()).toEqual([
      { path: missing, reason: expect.any(String) },
    ]);
    const info = (await (await t.call('/api/server-info', { token: t.adminToken })).json()) as {
      musicFolders: unknown;
    };
    expect(info.musicFolders).toEqual([
      { path: present, status: 'ok' },
      { path: missing, status: 'missing' },
    ]);
  });

  it('cannot be watched, so it is rescanned periodically (said in the log) and picked up when it appears', async () => {
    const later = join(base, 'mounted-later');
    t = await startTestServer({ config: { libraryDirs: [later] }, library: WATCH });
    expect(
      t.logs.some((line) => /WARN music folder cannot be watched; rescanning periodically/.test(line)),
    ).toBe(true);
    await mkdir(later, { recursive: true });
    await copyFile(join(formats, 'aac.m4a'), join(later, 'song.m4a'));
    const server = t;
    await within(10_000, 'the appeared folder', async () => (await trackPaths(server)).length === 1);
    expect(
      (await (await t.call('/api/server-info', { token: t.adminToken })).json()) as object,
    ).toMatchObject({
      musicFolders: [{ path: later, status: 'ok' }],
    });
  });
});
