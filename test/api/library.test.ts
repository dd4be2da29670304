import { cp, rm, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '../../server/contract/common.js';
import type { Album, Track } from '../../server/contract/library.js';
import { makeUser, type TestUser } from '../factories/users.js';
import { copyFixtureLibrary } from '../support/fixture-library.js';
import { postForm, postJson, problem, startTestServer, type TestServer } from '../support/server.js';

/**
 * The library over real HTTP, scanned by the real scanner from the generated fixture files
 * (scripts/make-fixtures.ts): six formats of one album, an untagged file and a broken one.
 */
let t: TestServer;
let music: string;
let user: TestUser;

beforeAll(async () => {
  music = (await copyFixtureLibrary('melon-music-')).library;
  t = await startTestServer({ config: { libraryDirs: [music] } });
  user = await makeUser(t);
});
afterAll(async () => {
  await t.stop();
  await rm(dirname(music), { recursive: true, force: true });
});

async function get<T>(path: string, token = user.token): Promise<T> {
  const response = await t.call(path, { token });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as T;
}

async function scan() {
  const started = await t.call('/api/library/scan', { method: 'POST', token: t.adminToken });
  expect(started.status).toBe(202);
  await t.server.services.library.waitForIdle();
  return get<{
    running: boolean;
    filesSeen: number;
    filesTotal: number;
    added: number;
    updated: number;
    removed: number;
    errors: Array<{ path: string; reason: string }>;
  }>('/api/library/scan', t.adminToken);
}

const trackNamed = async (name: string) =>
  (await get<Page<Track>>(`/api/tracks?q=${encodeURIComponent(name)}`)).items.find((i) => i.name === name)!;

describe('scanning', () => {
  it('reports the start-up scan: every audio file, the broken one listed in errors', async () => {
    const progress = await get<Record<string, unknown>>('/api/library/scan', t.adminToken);
    expect(progress).toMatchObject({ running: false, added: 7, updated: 0, removed: 0, filesSeen: 8 });
    expect(progress.errors).toEqual([
      { path: expect.stringMatching(/corrupt\.mp3$/), reason: expect.any(String) },
    ]);
  });

  it('names each refused file with its reason: in problems, with the total, and once in the log', async () => {
    const progress = await get<Record<string, unknown>>('/api/library/scan', t.adminToken);
    const corrupt = join(music, 'broken', 'corrupt.mp3');
    expect(progress.problems).toEqual([
      { path: corrupt, reason: 'Not an audio file: no audio stream found' },
    ]);
    expect(progress.problemCount).toBe(1);
    const warnings = () => t.logs.filter((line) => line.includes('WARN not in the library'));
    expect(warnings()).toEqual([expect.stringContaining(corrupt)]);
    // A rescan that finds the same problem does not repeat the warning.
    await scan();
    expect(warnings()).toHaveLength(1);
  });

  it('is for Admins only', async () => {
    for (const method of ['GET', 'POST']) {
      const response = await t.call('/api/library/scan', { method, token: user.token });
      expect(response.status).toBe(401);
      expect((await problem(response)).code).toBe('forbidden_role');
    }
  });
});

describe('tracks', () => {
  it('lists every track ordered by name, with tags, duration and the picture list', async () => {
    const page = await get<Page<Track>>('/api/tracks');
    expect(page).toMatchObject({ page: 0, count: 100, total: 7 });
    expect(page.items.map((i) => i.name)).toEqual([
      'Lonely Song',
      'Tone FLAC',
      'Tone M4A',
      'Tone MP3',
      'Tone OGG',
      'Tone OPUS',
      'Tone WAV',
    ]);
    const mp3 = page.items.find((i) => i.name === 'Tone MP3')!;
    expect(mp3).toMatchObject({
      album: { name: 'Fixture Album' },
      artists: [{ name: 'Aurora Lane' }, { name: 'The Static' }],
      genres: ['Synthpop', 'Ambient'],
      trackNumber: 1,
      discNumber: 1,
      year: 2021,
      format: 'mp3',
      userRating: null,
      averageRating: null,
      ratingCount: 0,
    });
    expect(mp3.durationMs).toBeGreaterThan(1900);
    expect(mp3.durationMs).toBeLessThan(2200);
    expect(mp3.artwork).toEqual([
      {
        pos: 0,
        type: expect.stringMatching(/front/i),
        mime: 'image/png',
        width: 64,
        height: 64,
        size: expect.any(Number),
      },
      {
        pos: 1,
        type: expect.stringMatching(/back/i),
        mime: 'image/jpeg',
        width: 48,
        height: 32,
        size: expect.any(Number),
      },
    ]);
    expect(mp3).not.toHaveProperty('path');
  });

  it('reads every format with its two pictures (WAV has none)', async () => {
    const page = await get<Page<Track>>('/api/tracks?q=tone');
    const byFormat = Object.fromEntries(page.items.map((i) => [i.format, i.artwork.length]));
    expect(byFormat).toEqual({ mp3: 2, flac: 2, m4a: 2, ogg: 2, opus: 2, wav: 0 });
  });

  it('names an untagged file after its file and folders', async () => {
    const lonely = await trackNamed('Lonely Song');
    expect(lonely.album?.name).toBe('Lonely Folder');
    expect(lonely.artwork).toEqual([]);
  });

  it("shows the file's path to an Admin only", async () => {
    const mp3 = await trackNamed('Tone MP3');
    const asAdmin = await get<Track>(`/api/tracks/${mp3.id}`, t.adminToken);
    expect(asAdmin.path).toMatch(/01 - Tone MP3\.mp3$/);
    expect(await get<Track>(`/api/tracks/${mp3.id}`)).not.toHaveProperty('path');
  });

  it('pages and searches; bad paging is 400; an unknown id is 404', async () => {
    const second = await get<Page<Track>>('/api/tracks?count=2&page=1');
    expect(second.items.map((i) => i.name)).toEqual(['Tone M4A', 'Tone MP3']);
    expect(second).toMatchObject({ page: 1, count: 2, total: 7 });
    expect((await get<Page<Track>>('/api/tracks?page=50')).items).toEqual([]);
    expect((await get<Page<Track>>('/api/tracks?q=OPUS')).items.map((i) => i.name)).toEqual(['Tone OPUS']);
    expect(await problem(await t.call('/api/tracks?count=0', { token: user.token }))).toMatchObject({
      status: 400,
      parameter: 'count',
    });
    for (const id of ['nope', '..%2F..%2Fetc', 'x'.repeat(65)]) {
      const response = await t.call(`/api/tracks/${id}`, { token: user.token });
      expect(response.status).toBe(404);
      expect((await problem(response)).code).toBe('track_not_found');
    }
  });
});

describe('albums and artists', () => {
  it('groups the album by title and album artist, with its totals', async () => {
    const albums = await get<Page<Record<string, unknown> & { id: string; name: string }>>('/api/albums');
    expect(albums.items.map((a) => a.name)).toEqual(['Fixture Album', 'Lonely Folder']);
    const album = await get<Record<string, unknown>>(`/api/albums/${albums.items[0]!.id}`);
    expect(album).toMatchObject({
      name: 'Fixture Album',
      artists: [{ name: 'Aurora Lane' }],
      year: 2021,
      trackCount: 6,
      genres: ['Synthpop', 'Ambient'],
      ratingCount: 0,
    });
    expect(album.durationMs).toBeGreaterThan(6 * 1900);
  });

  it('splits "feat." credits into artists and merges them across files', async () => {
    const artists =
      await get<Page<{ id: string; name: string; trackCount: number; albumCount: number }>>(
        '/api/artists?q=a',
      );
    const aurora = artists.items.find((a) => a.name === 'Aurora Lane')!;
    const artist = await get<Record<string, unknown>>(`/api/artists/${aurora.id}`);
    expect(artist).toMatchObject({
      name: 'Aurora Lane',
      trackCount: 6,
      albumCount: 1,
      pfpCount: 0,
      bannerCount: 0,
    });
    expect(artists.items.some((a) => a.name === 'The Static')).toBe(true);
    expect((await t.call('/api/albums/nope', { token: user.token })).status).toBe(404);
    expect((await problem(await t.call('/api/artists/nope', { token: user.token }))).code).toBe(
      'artist_not_found',
    );
  });
});

describe('ratings on the library', () => {
  it("shows the caller's rating and the average over users; 0 removes a rating", async () => {
    const mp3 = await trackNamed('Tone MP3');
    const other = await makeUser(t);
    const rate = (token: string, rating: string) =>
      postForm(t, '/api/stats/rate-track', { id: mp3.id, rating }, token);
    const response = await rate(user.token, '7');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: mp3.id, rating: 7 });
    expect((await rate(other.token, '4')).status).toBe(200);
    expect(await get<Track>(`/api/tracks/${mp3.id}`)).toMatchObject({
      userRating: 7,
      averageRating: 5.5,
      ratingCount: 2,
    });
    expect((await rate(user.token, '10')).status).toBe(200);
    expect(await get<Track>(`/api/tracks/${mp3.id}`)).toMatchObject({
      userRating: 10,
      averageRating: 7,
      ratingCount: 2,
    });
    expect((await rate(user.token, '0')).status).toBe(200);
    expect(await get<Track>(`/api/tracks/${mp3.id}`)).toMatchObject({
      userRating: null,
      averageRating: 4,
      ratingCount: 1,
    });
    // A deleted account no longer counts.
    expect((await postForm(t, '/api/users/delete', { id: other.id }, t.adminToken)).status).toBe(200);
    expect(await get<Track>(`/api/tracks/${mp3.id}`)).toMatchObject({
      averageRating: null,
      ratingCount: 0,
    });
  });

  it('rates albums and artists, and refuses bad ratings, unknown targets and Pass accounts', async () => {
    const albums = await get<Page<{ id: string }>>('/api/albums');
    const artists = await get<Page<{ id: string }>>('/api/artists');
    expect(
      (await postForm(t, '/api/stats/rate-album', { id: albums.items[0]!.id, rating: '8' }, user.token))
        .status,
    ).toBe(200);
    expect((await get<Album>(`/api/albums/${albums.items[0]!.id}`)).userRating).toBe(8);
    expect(
      (await postJson(t, '/api/stats/rate-artist', { id: artists.items[0]!.id, rating: 3 }, user.token))
        .status,
    ).toBe(200);
    for (const rating of ['11', '-1', '2.5', 'five', '']) {
      const response = await postForm(
        t,
        '/api/stats/rate-album',
        { id: albums.items[0]!.id, rating },
        user.token,
      );
      expect(await problem(response)).toMatchObject({ status: 400, parameter: 'rating' });
    }
    for (const [kind, code] of [
      ['track', 'track_not_found'],
      ['album', 'album_not_found'],
      ['artist', 'artist_not_found'],
    ]) {
      const response = await postForm(t, `/api/stats/rate-${kind}`, { id: 'nope', rating: '5' }, user.token);
      expect(await problem(response)).toMatchObject({ status: 404, code });
    }
    const pass = await makeUser(t, { role: 'Pass' });
    const refused = await postForm(
      t,
      '/api/stats/rate-album',
      { id: albums.items[0]!.id, rating: '5' },
      pass.token,
    );
    expect((await problem(refused)).code).toBe('forbidden_role');
  });
});

describe('playlists and collections', () => {
  it('creates them for Admins and Users, lists and reads them', async () => {
    const mp3 = await trackNamed('Tone MP3');
    for (const kind of ['playlist', 'collection'] as const) {
      const created = await postJson(
        t,
        `/api/${kind}s/create`,
        { name: `Road ${kind}`, trackIds: [mp3.id] },
        user.token,
      );
      expect(created.status).toBe(201);
      const body = (await created.json()) as Record<string, unknown> & { id: string };
      expect(body).toMatchObject({
        name: `Road ${kind}`,
        description: null,
        trackIds: [mp3.id],
        owner: user.id,
        hasArtwork: false,
      });
      expect(await get(`/api/${kind}s/${body.id}`)).toEqual(body);
      expect((await get<Page<unknown>>(`/api/${kind}s?q=road`)).items).toEqual([body]);
      const unknown = await t.call(`/api/${kind}s/nope`, { token: user.token });
      expect((await problem(unknown)).code).toBe(`${kind}_not_found`);
    }
  });

  it("sends a playlist's or collection's tracks in its order, in one answer", async () => {
    const [mp3, flac] = [await trackNamed('Tone MP3'), await trackNamed('Tone FLAC')];
    const pass = await makeUser(t, { role: 'Pass' });
    for (const kind of ['playlist', 'collection'] as const) {
      const created = await postJson(
        t,
        `/api/${kind}s/create`,
        { name: `Order ${kind}`, trackIds: [flac.id, mp3.id, flac.id] },
        user.token,
      );
      const { id } = (await created.json()) as { id: string };
      const { items } = await get<{ items: Track[] }>(`/api/${kind}s/${id}/tracks`, pass.token);
      expect(items.map((track) => track.id)).toEqual([flac.id, mp3.id, flac.id]);
      expect(items[1]).toEqual(await get(`/api/tracks/${mp3.id}`, pass.token));
      const unknown = await t.call(`/api/${kind}s/nope/tracks`, { token: user.token });
      expect((await problem(unknown)).code).toBe(`${kind}_not_found`);
    }
  });

  it('refuses a missing name, an unknown track and Pass accounts', async () => {
    expect(await problem(await postJson(t, '/api/playlists/create', {}, user.token))).toMatchObject({
      parameter: 'name',
    });
    const unknown = await postJson(t, '/api/playlists/create', { name: 'x', trackIds: ['nope'] }, user.token);
    expect(await problem(unknown)).toMatchObject({ status: 400, parameter: 'trackIds' });
    const pass = await makeUser(t, { role: 'Pass' });
    expect((await postJson(t, '/api/playlists/create', { name: 'x' }, pass.token)).status).toBe(401);
  });
});

describe('rescanning', () => {
  it('adds, updates and removes files incrementally, keeping the ids of unchanged files', async () => {
    const before = await get<Page<Track>>('/api/tracks');
    const flac = before.items.find((i) => i.name === 'Tone FLAC')!;
    const album = join(music, 'Aurora Lane', 'Fixture Album');
    await cp(join(album, '01 - Tone MP3.mp3'), join(album, '07 - Tone Copy.mp3'));
    // Changed: a new modification time is enough for the scanner to read the file again.
    const later = new Date(Date.now() + 60_000);
    await utimes(join(album, '02 - Tone FLAC.flac'), later, later);
    await rm(join(album, '06 - Tone WAV.wav'));
    await writeFile(join(music, 'broken', 'another.txt'), 'not music');

    const progress = await scan();
    expect(progress).toMatchObject({ running: false, added: 1, updated: 1, removed: 1 });
    const after = await get<Page<Track>>('/api/tracks');
    expect(after.total).toBe(7);
    expect(after.items.map((i) => i.name)).not.toContain('Tone WAV');
    expect(after.items.find((i) => i.name === 'Tone FLAC')!.id).toBe(flac.id);
    // Every file that is still there kept its id; the copy got a new one.
    const beforeIds = new Set(before.items.map((i) => i.id));
    expect(after.items.filter((i) => !beforeIds.has(i.id))).toHaveLength(1);

    const again = await scan();
    expect(again).toMatchObject({ added: 0, updated: 0, removed: 0 });
  });

  it('keeps ids across a restart', async () => {
    const before = (await get<Page<Track>>('/api/tracks')).items.map((i) => [i.name, i.id]);
    t = await t.restart();
    user = {
      ...user,
      token: (
        (await (
          await postJson(t, '/auth/login', { username: user.username, password: user.password })
        ).json()) as { token: string }
      ).token,
    };
    expect((await get<Page<Track>>('/api/tracks')).items.map((i) => [i.name, i.id])).toEqual(before);
  });
});
