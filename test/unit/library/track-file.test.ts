import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTrackFile, type FileIdentity } from '../../../server/library/track-file.js';

const run = promisify(execFile);

let base: string;
let music: string;
let song: string;
let scanned: FileIdentity;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'melon-track-file-')));
  music = join(base, 'music');
  await mkdir(join(music, 'Album'), { recursive: true });
  await mkdir(join(base, 'outside'));
  song = join(music, 'Album', 'song.mp3');
  await writeFile(song, 'the scanned song');
  await writeFile(join(base, 'outside', 'secret'), 'a secret');
  const info = await stat(song);
  scanned = { dev: info.dev, ino: info.ino };
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const reasonOf = (attempt: Promise<unknown>) =>
  attempt.then(
    () => 'opened',
    (error: unknown) => (error as { reason?: string }).reason ?? String(error),
  );

describe('openTrackFile', () => {
  it('opens the scanned file and says where it really is', async () => {
    const file = await openTrackFile(song, [music], scanned);
    try {
      expect(file.realPath).toBe(song);
      expect((await file.handle.readFile()).toString()).toBe('the scanned song');
    } finally {
      await file.handle.close();
    }
  });

  it('follows a link that stays inside the music folders, as the scanner does', async () => {
    const link = join(music, 'link.mp3');
    await symlink(song, link);
    const file = await openTrackFile(link, [music], scanned);
    expect(file.realPath).toBe(song);
    await file.handle.close();
  });

  it('refuses a link out of the music folders even when the scan has no identity to compare', async () => {
    const link = join(music, 'out.mp3');
    await symlink(join(base, 'outside', 'secret'), link);
    expect(await reasonOf(openTrackFile(link, [music], null))).toBe('outside_music_folders');
  });

  it('refuses another file at the same name, and a folder, a FIFO or nothing there', async () => {
    const other = join(music, 'Album', 'other.mp3');
    await writeFile(other, 'another song');
    expect(await reasonOf(openTrackFile(other, [music], scanned))).toBe('replaced');
    expect(await reasonOf(openTrackFile(join(music, 'Album'), [music], null))).toBe('not_regular');
    const fifo = join(music, 'fifo.mp3');
    await run('mkfifo', [fifo]);
    // Opened without blocking: a FIFO nobody writes to must not hold the server.
    expect(await reasonOf(openTrackFile(fifo, [music], null))).toBe('not_regular');
    expect(await reasonOf(openTrackFile(join(music, 'gone.mp3'), [music], null))).toBe('missing');
  });

  it('refuses a file reached through a parent folder swapped for a link', async () => {
    const album = join(music, 'Swapped');
    await mkdir(album);
    await writeFile(join(album, 'song.mp3'), 'inside');
    const { dev, ino } = await stat(join(album, 'song.mp3'));
    await rename(album, join(base, 'outside', 'Swapped'));
    await symlink(join(base, 'outside', 'Swapped'), album);
    // The same inode, now outside: refused for where it is.
    expect(await reasonOf(openTrackFile(join(album, 'song.mp3'), [music], { dev, ino }))).toBe(
      'outside_music_folders',
    );
  });
});
