import { beforeAll, describe, expect, it } from 'vitest';
import type { Album, Track } from '../../server/contract/library.js';
import type { Favourites, Genre, NowPlaying, PlayQueue } from '../../server/contract/listening.js';
import type { Page } from '../../server/contract/common.js';
import { album, artist, fakeScanner, libraryOf, track } from '../factories/library.js';
import { makeUser, type TestUser } from '../factories/users.js';
import { postJson, problem, useTestServer } from '../support/server.js';

/** What the page's player reads and writes (docs/API.md, Listening): orders, queue, favourites. */
const index = libraryOf([
  artist('ar1', 'Björk', [
    album('al1', 'Homogenic', { year: 1997 }, [
      // Track numbers in play order within the album, whatever the list order.
      track('t1', 'Hunter', { genres: ['Electronic'], trackNumber: 2 }),
      track('t2', 'Jóga', { genres: ['Electronic'], trackNumber: 1 }),
    ]),
    album('al3', 'Debut', { year: 1993 }, [track('t4', 'Human Behaviour', { genres: ['pop'] })]),
  ]),
  artist('ar2', 'ABBA', [
    album('al2', 'Arrival', { year: 1976 }, [
      track('t3', 'Dancing Queen', { genres: ['Pop'], mtimeMs: 5_000 }),
    ]),
  ]),
]);

const t = useTestServer({ scanner: fakeScanner(index) });
let alex: TestUser;
let sam: TestUser;
let wall: TestUser;

beforeAll(async () => {
  alex = await makeUser(t);
  sam = await makeUser(t);
  wall = await makeUser(t, { role: 'Pass' });
});

async function read<T>(path: string, token: string): Promise<T> {
  const response = await t.call(path, { token });
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}
const ids = (items: Array<{ id: string }>) => items.map((item) => item.id);

describe('browsing albums', () => {
  it('sorts albums by name, artist, year, when they were added and how often the caller played them', async () => {
    const order = async (sort: string) =>
      ids((await read<Page<Album>>(`/api/albums?sort=${sort}`, alex.token)).items);
    expect(await order('name')).toEqual(['al2', 'al3', 'al1']);
    expect(await order('artist')).toEqual(['al2', 'al3', 'al1']);
    expect(await order('year')).toEqual(['al1', 'al3', 'al2']);
    expect(await order('added')).toEqual(['al2', 'al3', 'al1']);
    for (const id of ['t4', 't4', 't1'])
      expect((await postJson(t, '/api/stats/log-play', { id }, alex.token)).status).toBe(200);
    expect(await order('played')).toEqual(['al3', 'al1', 'al2']);
    // Sam's order is his own.
    expect(ids((await read<Page<Album>>('/api/albums?sort=played', sam.token)).items)).toEqual([
      'al2',
      'al3',
      'al1',
    ]);
  });

  it('filters albums by genre in any case, and lists genres with their counts', async () => {
    expect(ids((await read<Page<Album>>('/api/albums?genre=POP', alex.token)).items)).toEqual(['al2', 'al3']);
    expect(await read<Genre[]>('/api/genres', wall.token)).toEqual([
      { name: 'Electronic', albumCount: 1, trackCount: 2 },
      { name: 'Pop', albumCount: 2, trackCount: 2 },
    ]);
  });

  it('refuses an order it does not know', async () => {
    const response = await t.call('/api/albums?sort=random', { token: alex.token });
    expect(await problem(response)).toMatchObject({
      status: 400,
      code: 'invalid_parameter',
      parameter: 'sort',
    });
  });

  it("lists an album's tracks in play order, and an artist's albums newest first", async () => {
    expect(ids(await read<Track[]>('/api/albums/al1/tracks', wall.token))).toEqual(['t2', 't1']);
    expect(ids(await read<Album[]>('/api/artists/ar1/albums', wall.token))).toEqual(['al1', 'al3']);
    const gone = await t.call('/api/albums/nope/tracks', { token: alex.token });
    expect((await problem(gone)).code).toBe('album_not_found');
    const noArtist = await t.call('/api/artists/nope/albums', { token: alex.token });
    expect((await problem(noArtist)).code).toBe('artist_not_found');
  });

  it("puts an artist's most played tracks first", async () => {
    for (let i = 0; i < 3; i++) await postJson(t, '/api/stats/log-play', { id: 't2' }, sam.token);
    expect(ids(await read<Track[]>('/api/artists/ar1/top-tracks?count=2', sam.token))).toEqual(['t2', 't4']);
    const gone = await t.call('/api/artists/nope/top-tracks', { token: sam.token });
    expect((await problem(gone)).code).toBe('artist_not_found');
  });
});

describe('covers', () => {
  it('gives an album or artist without pictures the default artwork, scaled when asked, and 404s unknown ones', async () => {
    for (const path of ['/api/art/album/al1', '/api/art/artist/ar1', '/api/art/album/al2?size=16']) {
      const response = await t.call(path, { token: wall.token });
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toMatch(/^image\//);
    }
    const fresh = await t.call('/api/art/album/al1', { token: wall.token });
    const etag = fresh.headers.get('etag')!;
    const again = await t.call('/api/art/album/al1', {
      token: wall.token,
      headers: { 'If-None-Match': etag },
    });
    expect(again.status).toBe(304);
    expect((await problem(await t.call('/api/art/album/nope', { token: wall.token }))).code).toBe(
      'album_not_found',
    );
    expect((await problem(await t.call('/api/art/artist/nope', { token: wall.token }))).code).toBe(
      'artist_not_found',
    );
    const size = await t.call('/api/art/album/al1?size=0', { token: wall.token });
    expect(await problem(size)).toMatchObject({ status: 400, parameter: 'size' });
  });
});

describe('the play queue', () => {
  it('is empty until one is saved', async () => {
    expect(await read<PlayQueue>('/api/play-queue', wall.token)).toEqual({
      tracks: [],
      current: null,
      positionMs: 0,
      changedAt: null,
      changedBy: null,
    });
  });

  it('is the one Subsonic apps read: saved in the page, picked up on the phone and back', async () => {
    const saved = await postJson(
      t,
      '/api/play-queue/save',
      { trackIds: ['t3', 't1'], current: 't1', positionMs: 61_500, device: 'Browser (Kitchen)' },
      alex.token,
    );
    expect(await saved.json()).toEqual({ saved: true });
    const queue = await read<PlayQueue>('/api/play-queue', alex.token);
    expect(ids(queue.tracks)).toEqual(['t3', 't1']);
    expect(queue).toMatchObject({ current: 't1', positionMs: 61_500, changedBy: 'Browser (Kitchen)' });
    expect(queue.changedAt).toMatch(/Z$/);
    // The same record Subsonic's getPlayQueue reads; its savePlayQueue writes what the page then reads.
    const caller = {
      userId: alex.id,
      username: alex.username,
      role: 'User' as const,
      expiresAt: Infinity,
      inviteId: null,
    };
    expect(t.server.services.playQueues.get(caller)).toMatchObject({ trackIds: ['t3', 't1'], current: 't1' });
    await t.server.services.playQueues.save(caller, {
      trackIds: ['t4'],
      current: 't4',
      positionMs: 5,
      client: 'DSub',
    });
    expect(await read<PlayQueue>('/api/play-queue', alex.token)).toMatchObject({
      current: 't4',
      changedBy: 'DSub',
    });
    // Sam's queue is his own.
    expect((await read<PlayQueue>('/api/play-queue', sam.token)).tracks).toEqual([]);
  });

  it('takes the list as a form too, and an empty list clears it', async () => {
    const form = await t.call('/api/play-queue/save', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'trackIds=t1,t2&current=t2&positionMs=10',
      token: sam.token,
    });
    expect(form.status).toBe(200);
    expect(ids((await read<PlayQueue>('/api/play-queue', sam.token)).tracks)).toEqual(['t1', 't2']);
    expect((await postJson(t, '/api/play-queue/save', {}, sam.token)).status).toBe(200);
    expect((await read<PlayQueue>('/api/play-queue', sam.token)).changedAt).toBeNull();
  });

  it('refuses unknown tracks, a current track outside the list and a bad position, and keeps the queue', async () => {
    const before = await read<PlayQueue>('/api/play-queue', alex.token);
    const unknown = await postJson(t, '/api/play-queue/save', { trackIds: ['t1', 'nope'] }, alex.token);
    expect((await problem(unknown)).code).toBe('track_not_found');
    const outside = await postJson(
      t,
      '/api/play-queue/save',
      { trackIds: ['t1'], current: 't2' },
      alex.token,
    );
    expect(await problem(outside)).toMatchObject({ status: 400, parameter: 'current' });
    const position = await postJson(
      t,
      '/api/play-queue/save',
      { trackIds: ['t1'], positionMs: -1 },
      alex.token,
    );
    expect(await problem(position)).toMatchObject({ status: 400, parameter: 'positionMs' });
    const notList = await postJson(t, '/api/play-queue/save', { trackIds: { a: 1 } }, alex.token);
    expect(await problem(notList)).toMatchObject({ status: 400, parameter: 'trackIds' });
    const tooMany = await postJson(
      t,
      '/api/play-queue/save',
      { trackIds: Array.from({ length: 5001 }, () => 't1') },
      alex.token,
    );
    expect(await problem(tooMany)).toMatchObject({ status: 400, parameter: 'trackIds' });
    expect(await read<PlayQueue>('/api/play-queue', alex.token)).toEqual(before);
  });

  it('is read-only for a Pass account', async () => {
    const refused = await postJson(t, '/api/play-queue/save', { trackIds: ['t1'] }, wall.token);
    expect((await problem(refused)).code).toBe('forbidden_role');
  });
});

describe('favourites', () => {
  it('stars and unstars tracks, albums and artists, the latest first', async () => {
    for (const [kind, id] of [
      ['track', 't2'],
      ['album', 'al2'],
      ['artist', 'ar1'],
      ['track', 't3'],
    ] as const) {
      t.clock.advance(1000);
      const response = await postJson(t, '/api/favourites/star', { kind, id }, sam.token);
      expect(await response.json()).toEqual({ starred: true, kind, id });
    }
    const starred = await read<Favourites>('/api/favourites', sam.token);
    expect(ids(starred.tracks)).toEqual(['t3', 't2']);
    expect(ids(starred.albums)).toEqual(['al2']);
    expect(ids(starred.artists)).toEqual(['ar1']);
    expect(starred.tracks[0]!.starredAt).toMatch(/Z$/);
    const unstarred = await postJson(t, '/api/favourites/unstar', { kind: 'track', id: 't3' }, sam.token);
    expect(await unstarred.json()).toEqual({ starred: false, kind: 'track', id: 't3' });
    expect(ids((await read<Favourites>('/api/favourites', sam.token)).tracks)).toEqual(['t2']);
    // Each member's own.
    expect(await read<Favourites>('/api/favourites', alex.token)).toEqual({
      tracks: [],
      albums: [],
      artists: [],
    });
  });

  it('refuses unknown items and kinds, and changes nothing', async () => {
    const before = await read<Favourites>('/api/favourites', sam.token);
    const unknown = await postJson(t, '/api/favourites/star', { kind: 'album', id: 'nope' }, sam.token);
    expect((await problem(unknown)).code).toBe('album_not_found');
    const kind = await postJson(t, '/api/favourites/star', { kind: 'song', id: 't1' }, sam.token);
    expect(await problem(kind)).toMatchObject({ status: 400, parameter: 'kind' });
    const missing = await postJson(t, '/api/favourites/unstar', { kind: 'track' }, sam.token);
    expect(await problem(missing)).toMatchObject({ status: 400, parameter: 'id' });
    const pass = await postJson(t, '/api/favourites/star', { kind: 'track', id: 't1' }, wall.token);
    expect((await problem(pass)).code).toBe('forbidden_role');
    expect(await read<Favourites>('/api/favourites', sam.token)).toEqual(before);
  });
});

describe('now playing', () => {
  it('shows what a member started on the page to those who may read their statistics, until it ends', async () => {
    const announced = await postJson(
      t,
      '/api/now-playing',
      { id: 't3', device: 'Browser (Kitchen)' },
      alex.token,
    );
    expect(await announced.json()).toEqual({ announced: true });
    const seen = await read<NowPlaying[]>('/api/now-playing', wall.token);
    expect(seen).toEqual([
      expect.objectContaining({ userId: alex.id, username: alex.username, client: 'Browser (Kitchen)' }),
    ]);
    expect(seen[0]!.track.id).toBe('t3');
    t.clock.advance(180_000 + 2 * 60_000 + 1);
    expect(await read<NowPlaying[]>('/api/now-playing', wall.token)).toEqual([]);
    const unknown = await postJson(t, '/api/now-playing', { id: 'nope' }, alex.token);
    expect((await problem(unknown)).code).toBe('track_not_found');
  });
});
