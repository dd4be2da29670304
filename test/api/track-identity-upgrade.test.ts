import { readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LibraryIndex } from '../../server/domain/library.js';
import { copyFixtureLibrary } from '../support/fixture-library.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * A library kept by a Melon that did not record the device and inode of track files: after the
 * upgrade, the start-up scan gives every unchanged track its identity (without re-reading it), and
 * the tracks play again.
 */
let t: TestServer | undefined;
let music: string;

afterAll(async () => {
  await t?.stop();
  if (music) await rm(dirname(music), { recursive: true, force: true });
});

describe('tracks scanned before identities were kept', () => {
  it('play again once the start-up scan has recorded their identity', async () => {
    ({ library: music } = await copyFixtureLibrary('melon-upgrade-'));
    const first = await startTestServer({ config: { libraryDirs: [music] } });
    await first.stop(true);
    const file = join(first.dataDir, 'library.json');
    const stored = JSON.parse(await readFile(file, 'utf8')) as LibraryIndex;
    for (const track of stored.tracks) {
      expect(track.ino).toBeTypeOf('number');
      delete track.dev;
      delete track.ino;
    }
    await writeFile(file, JSON.stringify(stored));

    t = await startTestServer({ dataDir: first.dataDir, config: { libraryDirs: [music] } });
    const track = stored.tracks.find((item) => item.path.endsWith('Tone MP3.mp3'))!;
    const response = await t.call(`/api/tracks/${track.id}/stream`, { token: t.adminToken });
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(await readFile(track.path));
    const saved = JSON.parse(await readFile(file, 'utf8')) as LibraryIndex;
    expect(saved.tracks.every((item) => typeof item.ino === 'number')).toBe(true);
  }, 60_000);
});
