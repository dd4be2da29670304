import { execFile } from 'node:child_process';
import { copyFile, link, lstat, mkdir, mkdtemp, readFile, rename, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureFixtures } from '../../scripts/make-fixtures.js';
import type { LibraryIndex } from '../../server/domain/library.js';
import { scanLibrary } from '../../server/library/scanner.js';
import { idleProgress, type Scanner } from '../../server/services/library-service.js';
import { makeUser } from '../factories/users.js';
import { writeMp3WithPictures } from '../support/hostile-audio.js';
import { postForm, startTestServer, type TestServer } from '../support/server.js';
import { apiKeyFor } from '../subsonic/support.js';

/**
 * A member who can write to a music folder (a NAS share; Samba lets clients make symlinks) waits
 * until a song is a track, then swaps it, atomically, for something else: a link to Melon's own
 * secret key, a link to a file outside the music folders, a hard link to the secret key, another
 * regular file, or swaps the song's folder for a link to a folder elsewhere. Before the library
 * notices, every way a track's file is read or rewritten must refuse: 404 `track_file_not_found`
 * (Subsonic error 70), nothing of the other file sent or changed, and the library scanned again.
 */
const run = promisify(execFile);

const ATTACKS = [
  'link-to-secret',
  'link-outside',
  'hard-link-to-secret',
  'other-file',
  'folder-link',
] as const;
type Attack = (typeof ATTACKS)[number];
const READS = [
  'rest-download',
  'rest-stream',
  'rest-stream-transcoded',
  'api-stream',
  'api-stream-transcoded',
  'api-cover',
  'rest-cover',
  'art-delete',
] as const;
type Read = (typeof READS)[number];

let t: TestServer;
let base: string;
let music: string;
let outside: string;
let secret: Buffer;
let foreign: Buffer;
let foreignPicture: Buffer;
let foreignOgg: Buffer;
let passToken: string;
let passKey: string;
/** Once frozen, a scan changes nothing (the attack happens before the library notices) and is counted. */
let frozen = false;
let scansAsked = 0;
const ids = new Map<string, string>();

const folderOf = (attack: Attack, read: Read) => join(music, `${attack} ${read}`);
const songOf = (attack: Attack, read: Read) => join(folderOf(attack, read), 'song.ogg');

beforeAll(async () => {
  const fixtures = await ensureFixtures();
  base = await mkdtemp(join(tmpdir(), 'melon-swap-'));
  music = join(base, 'music');
  outside = join(base, 'outside');
  await mkdir(outside, { recursive: true });
  // A file outside the music folders with a picture of its own, so a leak of it is recognisable.
  await run('ffmpeg', [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0x12ab34:s=40x24', '-frames:v', '1'],
    join(outside, 'picture.png'),
  ]);
  foreignPicture = await readFile(join(outside, 'picture.png'));
  await writeMp3WithPictures(join(outside, 'private.mp3'), [{ data: foreignPicture, mime: 'image/png' }]);
  foreign = await readFile(join(outside, 'private.mp3'));
  const ogg = join(fixtures, 'library', 'Aurora Lane', 'Fixture Album', '04 - Tone OGG.ogg');
  // What a deletion would rewrite: an Ogg file with pictures, as the track is.
  await copyFile(ogg, join(outside, 'private.ogg'));
  foreignOgg = await readFile(join(outside, 'private.ogg'));
  for (const attack of ATTACKS)
    for (const read of READS) {
      await mkdir(folderOf(attack, read), { recursive: true });
      await copyFile(ogg, songOf(attack, read));
    }
  const scanner: Scanner = (dirs, previous: LibraryIndex, onProgress) => {
    if (!frozen) return scanLibrary(dirs, previous, onProgress);
    scansAsked++;
    return Promise.resolve({ index: previous, progress: idleProgress() });
  };
  t = await startTestServer({ config: { libraryDirs: [music] }, scanner });
  secret = await readFile(join(t.dataDir, 'secret.key'));
  const pass = await makeUser(t, { role: 'Pass' });
  passToken = pass.token;
  passKey = await apiKeyFor(t, pass.token, 'Kitchen speaker');
  const tracks = (await (await t.call('/api/tracks?count=1000', { token: t.adminToken })).json()) as {
    items: Array<{ id: string; path: string; artwork: unknown[] }>;
  };
  for (const track of tracks.items) ids.set(track.path, track.id);
  expect(ids.size).toBe(ATTACKS.length * READS.length);
  expect(tracks.items.every((track) => track.artwork.length > 0)).toBe(true);
  frozen = true;
  for (const attack of ATTACKS) for (const read of READS) await swap(attack, read);
}, 120_000);

afterAll(async () => {
  await t?.stop();
  await rm(base, { recursive: true, force: true });
});

/** Replaces the song in one atomic rename, as `ln -s … .tmp && mv .tmp song.ogg` does. */
async function swap(attack: Attack, read: Read): Promise<void> {
  const song = songOf(attack, read);
  const other = join(outside, read === 'art-delete' ? 'private.ogg' : 'private.mp3');
  if (attack === 'folder-link') {
    const elsewhere = join(outside, `${attack} ${read}`);
    await mkdir(elsewhere);
    await copyFile(other, join(elsewhere, 'song.ogg'));
    const away = join(outside, `moved ${read}`);
    await rename(folderOf(attack, read), away);
    await symlink(elsewhere, folderOf(attack, read));
    return;
  }
  const temp = join(folderOf(attack, read), '.swap.tmp');
  const secret = join(t.dataDir, 'secret.key');
  const replacements: Record<typeof attack, () => Promise<void>> = {
    'link-to-secret': () => symlink(secret, temp),
    'link-outside': () => symlink(other, temp),
    'hard-link-to-secret': () => link(secret, temp),
    'other-file': () => copyFile(other, temp),
  };
  await replacements[attack]();
  await rename(temp, song);
}

const contains = (body: Buffer, part: Buffer) => part.length > 0 && body.includes(part);

/** Sends one read of the swapped track; answers the status, the problem or Subsonic error code, and the bytes. */
async function attempt(
  attack: Attack,
  read: Read,
): Promise<{ refused: boolean; body: Buffer; code: string }> {
  const id = ids.get(songOf(attack, read))!;
  const rest = async (method: string, extra: string) => {
    const response = await fetch(
      `${t.url}/rest/${method}?apiKey=${passKey}&c=test&v=1.16.1&f=json&id=${id}${extra}`,
    );
    const body = Buffer.from(await response.arrayBuffer());
    const error = (() => {
      try {
        return (JSON.parse(body.toString()) as { 'subsonic-response': { error?: { code: number } } })[
          'subsonic-response'
        ].error;
      } catch {
        return undefined;
      }
    })();
    return { refused: error?.code === 70, body, code: String(error?.code ?? response.status) };
  };
  const native = async (response: Response) => {
    const body = Buffer.from(await response.arrayBuffer());
    const code =
      response.status === 404
        ? (JSON.parse(body.toString()) as { code: string }).code
        : String(response.status);
    return { refused: code === 'track_file_not_found', body, code };
  };
  switch (read) {
    case 'rest-download':
      return rest('download', '');
    case 'rest-stream':
      return rest('stream', '');
    case 'rest-stream-transcoded':
      return rest('stream', '&format=mp3&maxBitRate=64');
    case 'rest-cover':
      return rest('getCoverArt', '');
    case 'api-stream':
      return native(await fetch(`${t.url}/api/tracks/${id}/stream`, auth(passToken)));
    case 'api-stream-transcoded':
      return native(
        await fetch(`${t.url}/api/tracks/${id}/stream?format=mp3&maxBitRate=64`, auth(passToken)),
      );
    case 'api-cover':
      return native(await fetch(`${t.url}/api/art/track/${id}/0`, auth(passToken)));
    case 'art-delete':
      return native(await postForm(t, '/api/art/delete/track-art', { id, pos: '0' }, t.adminToken));
  }
}

const auth = (token: string): RequestInit => ({ headers: { Authorization: `Bearer ${token}` } });

describe.each(ATTACKS)('a track swapped as %s', (attack) => {
  it.each(READS)('refuses %s with 404, and nothing of the other file is sent', async (read) => {
    const asked = scansAsked;
    const { refused, body, code } = await attempt(attack, read);
    expect(code, `${attack} ${read}`).toBe(read.startsWith('rest') ? '70' : 'track_file_not_found');
    expect(refused).toBe(true);
    expect(contains(body, secret)).toBe(false);
    expect(contains(body, foreignPicture)).toBe(false);
    expect(contains(body, foreign.subarray(foreign.length - 4096))).toBe(false);
    // The library looks again, so the track leaves or follows its new file.
    await t.server.services.library.waitForIdle();
    expect(scansAsked).toBeGreaterThan(asked);
  });
});

describe('artwork deletion of a swapped track', () => {
  it('rewrites nothing: the secret key, the outside file and the swapped-in name stay as they were', async () => {
    expect(await readFile(join(t.dataDir, 'secret.key'))).toEqual(secret);
    expect(await readFile(join(outside, 'private.ogg'))).toEqual(foreignOgg);
    expect((await lstat(songOf('link-to-secret', 'art-delete'))).isSymbolicLink()).toBe(true);
    expect((await lstat(songOf('link-outside', 'art-delete'))).isSymbolicLink()).toBe(true);
    expect(await readFile(songOf('other-file', 'art-delete'))).toEqual(foreignOgg);
    expect(await readFile(join(outside, 'folder-link art-delete', 'song.ogg'))).toEqual(foreignOgg);
  });
});
