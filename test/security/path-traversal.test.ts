import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeScanner, makeLibrary } from '../factories/library.js';
import { send, snapshot } from '../support/attacker.js';
import { postForm, problem, useTestServer } from '../support/server.js';

/**
 * Every id that leads to a file: track ids (the audio file whose pictures are read or rewritten),
 * artist, playlist and collection ids (image files in the data folder). Ids are looked up, never
 * joined into paths: a hostile id is a 404 of its resource, and nothing inside or outside the data
 * folder is read, written or deleted.
 */
let outside: string;
let secretHex: string;
const PNG = await readFile(new URL('../../server/assets/default-art.png', import.meta.url));

const t = useTestServer({
  scanner: fakeScanner(
    makeLibrary({
      artists: [{ id: 'ar1' }],
      albums: [{ id: 'al1' }],
      tracks: [{ id: 't1', artistIds: ['ar1'] }],
    }),
  ),
});

beforeAll(async () => {
  secretHex = (await readFile(join(t.dataDir, 'secret.key'), 'utf8')).trim();
  // A folder beside the data folder, standing for everything else on the disk.
  outside = await mkdtemp(join(tmpdir(), 'melon-outside-'));
  await writeFile(join(outside, 'canary.png'), PNG);
  // Real artwork to aim at, so that a traversal would have something to hit.
  expect((await upload('artist-pfp', 'ar1')).status).toBe(201);
  const playlist = await postForm(t, '/api/playlists/create', { name: 'Mix' }, t.adminToken);
  expect((await upload('playlist-art', ((await playlist.json()) as { id: string }).id)).status).toBe(201);
});
afterAll(async () => {
  await rm(outside, { recursive: true, force: true });
});

function upload(kind: string, id: string | null, fileName = 'cover.png') {
  const form = new FormData();
  form.set('file', new Blob([PNG], { type: 'image/png' }), fileName);
  if (id !== null) form.set('id', id);
  return t.call(`/api/art/upload/${kind}`, { method: 'POST', body: form, token: t.adminToken });
}

/** Ids an attacker would try; each must be "not found", never a path. */
function hostileIds(): string[] {
  const fromArtwork = relative(join(t.dataDir, 'artwork', 'artists'), outside);
  return [
    '.',
    '..',
    '../',
    '../secret.key',
    '../../secret.key',
    '../../../../../../etc/passwd',
    '..\\..\\secret.key',
    `${fromArtwork}/canary`,
    `../${basename(outside)}`,
    join(outside, 'canary.png'),
    'ar1/../ar1',
    'ar1/..',
    'ar1/../../users.json',
    '%2e%2e%2fsecret.key',
    '..%2f..%2fsecret.key',
    '..%c0%af..%c0%afsecret.key',
    '..／..／secret.key',
    'ar1\u0000',
    'ar1%00.png',
    'ar1 ',
    '~/secret.key',
    'C:\\Windows\\win.ini',
    `${'../'.repeat(300)}etc/passwd`,
  ];
}

const POSTED: Array<[path: string, fields: Record<string, string>, code: string]> = [
  ['/api/art/delete/track-art', { pos: '0' }, 'track_not_found'],
  ['/api/art/delete/artist-pfp', { pos: '0' }, 'artist_not_found'],
  ['/api/art/delete/artist-banner', { pos: '0' }, 'artist_not_found'],
  ['/api/art/delete/playlist-art', {}, 'playlist_not_found'],
  ['/api/art/delete/collection-art', {}, 'collection_not_found'],
];
const UPLOADS: Array<[kind: string, code: string]> = [
  ['artist-pfp', 'artist_not_found'],
  ['artist-banner', 'artist_not_found'],
  ['playlist-art', 'playlist_not_found'],
  ['collection-art', 'collection_not_found'],
];
const FETCHED: Array<[template: string, code: string]> = [
  ['/api/art/track/ID/0', 'track_not_found'],
  ['/api/art/artist-pfp/ID/0', 'artist_not_found'],
  ['/api/art/artist-banner/ID/0', 'artist_not_found'],
  ['/api/art/playlist/ID', 'playlist_not_found'],
  ['/api/art/collection/ID', 'collection_not_found'],
  ['/api/tracks/ID', 'track_not_found'],
  ['/api/artists/ID', 'artist_not_found'],
  ['/api/playlists/ID', 'playlist_not_found'],
  ['/api/collections/ID', 'collection_not_found'],
];

describe('hostile ids', () => {
  it('are a 404 of the resource on every artwork write, and change no file anywhere', async () => {
    const before = { data: await snapshot(t.dataDir), outside: await snapshot(outside) };
    for (const id of hostileIds()) {
      for (const [path, fields, code] of POSTED) {
        const response = await postForm(t, path, { ...fields, id }, t.adminToken);
        expect(response.status, `${path} ${id}`).toBe(404);
        expect((await problem(response)).code, `${path} ${id}`).toBe(code);
      }
      for (const [kind, code] of UPLOADS) {
        const response = await upload(kind, id);
        expect(response.status, `${kind} ${id}`).toBe(404);
        expect((await problem(response)).code, `${kind} ${id}`).toBe(code);
      }
    }
    expect(await snapshot(t.dataDir)).toEqual(before.data);
    expect(await snapshot(outside)).toEqual(before.outside);
  });

  it('are a 404 of the resource when they come as a path segment, and read nothing', async () => {
    for (const id of hostileIds()) {
      for (const [template, code] of FETCHED) {
        // Raw, so that `.` and `..` arrive as they are (fetch would resolve them).
        const path = template.replace('ID', encodeURIComponent(id));
        const response = await send(t.url, { path, headers: { Authorization: `Bearer ${t.adminToken}` } });
        expect(response.status, path).toBe(404);
        expect(response.json(), path).toMatchObject({ code });
      }
    }
  });
});

describe('hostile paths', () => {
  it('never reach a file: dot segments, encoded slashes and bad escapes are 404s', async () => {
    const paths = [
      '/admin/../secret.key',
      '/admin/..%2fsecret.key',
      '/admin/%2e%2e/%2e%2e/secret.key',
      '/admin/style.css/../../secret.key',
      '/admin/..%5c..%5csecret.key',
      '/admin//etc/passwd',
      '/admin/%00',
      '/admin/index.html',
      '/admin/../../package.json',
      '/api/art/playlist/../../secret.key',
      '/api/art/playlist/..%2F..%2Fsecret.key',
      '/api/art/track/%2e%2e/0',
      '/api/art/track/..%c0%af..%c0%afsecret.key/0',
      '/api/art/collection/%',
      '/api/art/collection/%zz',
      '/api/art/default/../../secret.key',
      '/../../../../etc/passwd',
      '/secret.key',
      '/users.json',
      '/artwork/artists/ar1',
    ];
    for (const path of paths) {
      const response = await send(t.url, { path, headers: { Authorization: `Bearer ${t.adminToken}` } });
      expect(response.status, path).toBe(404);
      expect(response.headers['content-type'], path).toMatch(/^application\/problem\+json/);
      expect(response.text, path).not.toContain(secretHex);
      expect(response.text, path).not.toContain('passwordHash');
    }
  });

  it.each([
    ['../../../escape.png', 'a relative climb out of the folder'],
    ['/tmp/escape.png', 'an absolute path'],
    ['..\\..\\escape.png', 'a climb with Windows separators'],
    ['escape.png\u0000.jpg', 'a NUL byte cutting the name short'],
  ])('ignores the upload file name %j, %s: the server names the stored image', async (name) => {
    const artwork = join(t.dataDir, 'artwork');
    const before = Object.keys(await snapshot(artwork));
    expect((await upload('artist-banner', 'ar1', name)).status).toBe(201);
    const files = Object.keys(await snapshot(artwork));
    const serverNamed =
      /^(artists|playlists|collections)\/[A-Za-z0-9_-]{1,64}\/[a-z]+-[0-9a-f]{16}\.(png|jpg|webp)$/;
    expect(files.filter((file) => !before.includes(file))).toEqual([expect.stringMatching(serverNamed)]);
    expect(files.filter((file) => !serverNamed.test(file))).toEqual([]);
    const escaped = [
      join(t.dataDir, 'escape.png'),
      join(t.dataDir, '..', 'escape.png'),
      join(t.dataDir, 'artwork', 'escape.png'),
      '/tmp/escape.png',
    ];
    expect(escaped.filter((path) => existsSync(path))).toEqual([]);
  });
});
