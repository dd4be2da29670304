import { cp, mkdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Track as TrackView } from '../../server/contract/library.js';
import { makeUser, type TestUser } from '../factories/users.js';
import { decodedAudioHash, fileHash, sha256, tagsAndPictures } from '../support/audio.js';
import { copyFixtureLibrary } from '../support/fixture-library.js';
import { postForm, postJson, problem, startTestServer, type TestServer } from '../support/server.js';
import { makeUnwritable } from '../support/unwritable.js';

/**
 * Artwork over real HTTP (docs/API.md, Artwork): pictures inside real audio files of every format, and the
 * stored artist, playlist, collection and default images.
 */

/** A track as an Admin reads it: with its file. */
type Track = TrackView & Required<Pick<TrackView, 'path'>>;

let t: TestServer;
let music: string;
let images: string;
let user: TestUser;
let pass: TestUser;

beforeAll(async () => {
  ({ library: music, images } = await copyFixtureLibrary('melon-art-'));
  // Copies for the tests that must not spend the pictures of the per-format files.
  const album = join(music, 'Aurora Lane', 'Fixture Album');
  for (const folder of ['locked', 'twin', 'gone'])
    await mkdir(join(music, 'extra', folder), { recursive: true });
  await cp(join(album, '01 - Tone MP3.mp3'), join(music, 'extra', 'locked', 'Locked.mp3'));
  await cp(join(album, '02 - Tone FLAC.flac'), join(music, 'extra', 'twin', 'Twin.flac'));
  await cp(join(album, '01 - Tone MP3.mp3'), join(music, 'extra', 'gone', 'Gone.mp3'));
  t = await startTestServer({ config: { libraryDirs: [music] } });
  user = await makeUser(t);
  pass = await makeUser(t, { role: 'Pass' });
});
afterAll(async () => {
  await t.stop();
  await rm(dirname(music), { recursive: true, force: true });
});

async function allTracks(): Promise<Track[]> {
  const response = await t.call('/api/tracks?count=1000', { token: t.adminToken });
  return ((await response.json()) as { items: Track[] }).items;
}
const trackAt = async (suffix: string) => (await allTracks()).find((track) => track.path.endsWith(suffix))!;
const trackById = async (id: string) =>
  (await (await t.call(`/api/tracks/${id}`, { token: t.adminToken })).json()) as Track;
const deleteArt = (kind: string, fields: Record<string, string>, token = t.adminToken) =>
  postForm(t, `/api/art/delete/${kind}`, fields, token);

async function image(path: string, token = user.token) {
  const response = await t.call(path, { token });
  expect(response.status, path).toBe(200);
  return {
    type: response.headers.get('content-type'),
    etag: response.headers.get('etag'),
    source: response.headers.get('x-melon-artwork'),
    bytes: new Uint8Array(await response.arrayBuffer()),
  };
}

async function upload(kind: string, file: string, id?: string, name = 'picture.png') {
  const form = new FormData();
  form.set('file', new Blob([await readFile(file)], { type: 'image/png' }), name);
  if (id !== undefined) form.set('id', id);
  return t.call(`/api/art/upload/${kind}`, { method: 'POST', body: form, token: t.adminToken });
}

describe('deleting a picture embedded in a track', () => {
  it('refuses bad positions with 400 and leaves the file byte-identical', async () => {
    const track = await trackAt('Locked.mp3');
    const before = await fileHash(track.path);
    const outOfRange = await deleteArt('track-art', { id: track.id, pos: '2' });
    expect(await problem(outOfRange)).toMatchObject({
      status: 400,
      code: 'invalid_position',
      parameter: 'pos',
    });
    for (const pos of ['-1', 'one', '1.5', '']) {
      const response = await deleteArt('track-art', { id: track.id, pos });
      expect(await problem(response)).toMatchObject({
        status: 400,
        code: 'invalid_parameter',
        parameter: 'pos',
      });
    }
    expect(await fileHash(track.path)).toBe(before);
  });

  it('answers 404 for an unknown track and for a track whose file is gone', async () => {
    for (const id of ['nope', '..%2F..%2Fetc%2Fpasswd', 'x'.repeat(80)]) {
      const response = await deleteArt('track-art', { id, pos: '0' });
      expect((await problem(response)).code).toBe('track_not_found');
    }
    const gone = await trackAt('Gone.mp3');
    await rm(gone.path);
    const response = await deleteArt('track-art', { id: gone.id, pos: '0' });
    expect(await problem(response)).toMatchObject({ status: 404, code: 'track_file_not_found' });
  });

  it('is for Admins only', async () => {
    const track = await trackAt('Locked.mp3');
    for (const caller of [user, pass]) {
      const response = await deleteArt('track-art', { id: track.id, pos: '0' }, caller.token);
      expect(await problem(response)).toMatchObject({ status: 401, code: 'forbidden_role' });
    }
    expect((await deleteArt('track-art', { id: track.id, pos: '0' }, '')).status).toBe(401);
  });

  it('gives a clear error for a folder that cannot be written, and leaves the file intact', async (context) => {
    const track = await trackAt('Locked.mp3');
    const before = await fileHash(track.path);
    const undo = await makeUnwritable(dirname(track.path));
    if (!undo) return context.skip('this machine can make no folder unwritable for root (no chattr +i)');
    try {
      const response = await deleteArt('track-art', { id: track.id, pos: '0' });
      expect(await problem(response)).toMatchObject({ status: 409, code: 'file_not_writable' });
    } finally {
      await undo();
    }
    expect(await fileHash(track.path)).toBe(before);
    expect((await trackAt('Locked.mp3')).artwork).toHaveLength(2);
  });

  it('applies two simultaneous deletions of the same file one after the other', async () => {
    const track = await trackAt('Twin.flac');
    const audio = await decodedAudioHash(track.path);
    const responses = await Promise.all(
      [0, 0].map((pos) => deleteArt('track-art', { id: track.id, pos: String(pos) })),
    );
    expect(responses.map((r) => r.status)).toEqual([200, 200]);
    expect((await trackAt('Twin.flac')).artwork).toEqual([]);
    expect((await tagsAndPictures(track.path)).pictures).toEqual([]);
    expect(await decodedAudioHash(track.path)).toBe(audio);
  });

  for (const format of ['mp3', 'flac', 'm4a', 'ogg', 'opus']) {
    it(`${format}: removes pos 1, then pos 0, keeping the other picture, every tag and the audio`, async () => {
      const track = (await allTracks()).find(
        (item) => item.format === format && item.path.includes('Fixture Album'),
      )!;
      expect(track.artwork).toHaveLength(2);
      const before = await tagsAndPictures(track.path);
      const audio = await decodedAudioHash(track.path);
      const front = await image(`/api/art/track/${track.id}/0`);
      expect(front.type).toBe('image/png');
      expect(sha256(front.bytes)).toBe(sha256(await readFile(join(images, 'cover.png'))));

      const first = await deleteArt('track-art', { id: track.id, pos: '1' });
      expect(first.status, await first.clone().text()).toBe(200);
      expect(await first.json()).toEqual({ deleted: true, id: track.id, pos: 1 });
      const afterFirst = await tagsAndPictures(track.path);
      expect(afterFirst.tags).toEqual(before.tags);
      expect(afterFirst.tagTypes).toEqual(before.tagTypes);
      expect(afterFirst.pictures).toEqual([before.pictures[0]]);
      expect(await decodedAudioHash(track.path)).toBe(audio);
      expect((await trackById(track.id)).artwork).toEqual([
        expect.objectContaining({ pos: 0, mime: 'image/png' }),
      ]);

      // Parameters from the query string work as well as from the body.
      const second = await t.call(`/api/art/delete/track-art?id=${track.id}&pos=0`, {
        method: 'POST',
        token: t.adminToken,
      });
      expect(second.status, await second.clone().text()).toBe(200);
      const afterSecond = await tagsAndPictures(track.path);
      expect(afterSecond.tags).toEqual(before.tags);
      expect(afterSecond.pictures).toEqual([]);
      expect(await decodedAudioHash(track.path)).toBe(audio);
      expect((await trackById(track.id)).artwork).toEqual([]);
      if (format === 'mp3') expect(afterSecond.tagTypes).toEqual(['ID3v2.3']);
      // With no picture left, the track shows the default artwork.
      const fallback = await image(`/api/art/track/${track.id}/0`);
      expect(sha256(fallback.bytes)).not.toBe(sha256(front.bytes));
    });
  }
});

describe('artist pictures and banners', () => {
  let artistId: string;
  beforeAll(async () => {
    artistId = (await trackAt('Locked.mp3')).artists[0]!.id;
  });

  it('appends uploads, and deleting the middle one keeps the order of the other two', async () => {
    const files = ['cover.png', 'back.jpg', 'photo.webp'];
    for (const [i, file] of files.entries()) {
      const response = await upload('artist-pfp', join(images, file), artistId);
      expect(response.status).toBe(201);
      expect(await response.json()).toEqual({ id: artistId, pos: i });
    }
    const removed = await deleteArt('artist-pfp', { id: artistId, pos: '1' });
    expect(await removed.json()).toEqual({ deleted: true, id: artistId, pos: 1 });
    const first = await image(`/api/art/artist-pfp/${artistId}/0`);
    const second = await image(`/api/art/artist-pfp/${artistId}/1`);
    expect([first.type, second.type]).toEqual(['image/png', 'image/webp']);
    expect(sha256(second.bytes)).toBe(sha256(await readFile(join(images, 'photo.webp'))));
    const artist = (await (await t.call(`/api/artists/${artistId}`, { token: user.token })).json()) as Record<
      string,
      number
    >;
    expect(artist).toMatchObject({ pfpCount: 2, bannerCount: 0 });
  });

  it('checks banner positions against banners and picture positions against pictures', async () => {
    expect(await problem(await deleteArt('artist-banner', { id: artistId, pos: '0' }))).toMatchObject({
      status: 400,
      code: 'invalid_position',
    });
    expect((await upload('artist-banner', join(images, 'back.jpg'), artistId)).status).toBe(201);
    expect((await problem(await deleteArt('artist-pfp', { id: artistId, pos: '2' }))).code).toBe(
      'invalid_position',
    );
    expect((await deleteArt('artist-banner', { id: artistId, pos: '0' })).status).toBe(200);
    expect((await problem(await deleteArt('artist-pfp', { id: 'nope', pos: '0' }))).code).toBe(
      'artist_not_found',
    );
  });

  it('recognises images by their bytes: a text file named .png is 415 and stores nothing', async () => {
    const response = await upload('artist-pfp', join(images, 'not-an-image.png'), artistId, 'looks-fine.png');
    expect(await problem(response)).toMatchObject({ status: 415 });
    const artist = (await (await t.call(`/api/artists/${artistId}`, { token: user.token })).json()) as Record<
      string,
      number
    >;
    expect(artist.pfpCount).toBe(2);
  });

  it('refuses an upload over 20 MiB with 413, and one without a file with 400', async () => {
    const form = new FormData();
    form.set('id', artistId);
    form.set('file', new Blob([new Uint8Array(21 * 1024 * 1024)]), 'big.png');
    const big = await t.call('/api/art/upload/artist-pfp', {
      method: 'POST',
      body: form,
      token: t.adminToken,
    });
    expect(big.status).toBe(413);
    const empty = new FormData();
    empty.set('id', artistId);
    const none = await t.call('/api/art/upload/artist-pfp', {
      method: 'POST',
      body: empty,
      token: t.adminToken,
    });
    expect(await problem(none)).toMatchObject({ status: 400, parameter: 'file' });
  });

  it('serves images with an ETag and answers 304 to a current copy', async () => {
    const first = await image(`/api/art/artist-pfp/${artistId}/0`);
    const again = await t.call(`/api/art/artist-pfp/${artistId}/0`, {
      token: pass.token,
      headers: { 'If-None-Match': first.etag! },
    });
    expect(again.status).toBe(304);
  });
});

describe('playlist, collection and default artwork', () => {
  it('uploads, serves and deletes the one picture of a playlist and a collection', async () => {
    for (const kind of ['playlist', 'collection'] as const) {
      const created = await postJson(t, `/api/${kind}s/create`, { name: `Art ${kind}` }, user.token);
      const { id } = (await created.json()) as { id: string };
      expect(await problem(await deleteArt(`${kind}-art`, { id }))).toMatchObject({
        status: 404,
        code: 'artwork_not_found',
      });
      expect((await upload(`${kind}-art`, join(images, 'back.jpg'), id)).status).toBe(201);
      expect(
        (
          (await (await t.call(`/api/${kind}s/${id}`, { token: user.token })).json()) as {
            hasArtwork: boolean;
          }
        ).hasArtwork,
      ).toBe(true);
      expect((await image(`/api/art/${kind}/${id}`)).type).toBe('image/jpeg');
      expect(await (await deleteArt(`${kind}-art`, { id })).json()).toEqual({ deleted: true, id });
      expect((await image(`/api/art/${kind}/${id}`)).type).toBe('image/png');
      expect((await problem(await deleteArt(`${kind}-art`, { id: 'nope' }))).code).toBe(`${kind}_not_found`);
    }
  });

  it('replaces the built-in default with a custom one and falls back to it when deleted', async () => {
    const builtIn = await image('/api/art/default');
    expect(builtIn.type).toBe('image/png');
    expect(builtIn.source).toBe('built-in');
    expect(await problem(await deleteArt('default-art', {}))).toMatchObject({
      status: 404,
      code: 'artwork_not_found',
    });
    expect((await upload('default-art', join(images, 'photo.webp'))).status).toBe(201);
    const custom = await image('/api/art/default');
    expect(custom.type).toBe('image/webp');
    expect(custom.source).toBe('custom');
    const created = await postJson(t, '/api/playlists/create', { name: 'Bare' }, user.token);
    const { id } = (await created.json()) as { id: string };
    expect(sha256((await image(`/api/art/playlist/${id}`)).bytes)).toBe(sha256(custom.bytes));
    expect(await (await deleteArt('default-art', {})).json()).toEqual({ deleted: true });
    const again = await image('/api/art/default');
    expect(sha256(again.bytes)).toBe(sha256(builtIn.bytes));
    expect(again.source).toBe('built-in');
  });
});
