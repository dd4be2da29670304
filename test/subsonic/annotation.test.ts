import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser, type TestUser } from '../factories/users.js';
import { copyFixtureLibrary } from '../support/fixture-library.js';
import { ADMIN_PASSWORD, ADMIN_USER, postForm, postJson, useTestServer } from '../support/server.js';
import { ok, subsonicOnce, type Credentials } from './support.js';

/** Scrobbling, now playing, household top songs, ratings of albums and artists, queues: the rules. */
const t = useTestServer(async () => ({
  config: { libraryDirs: [(await copyFixtureLibrary('melon-subsonic-annotate-')).library] },
}));

let alice: TestUser;
let bob: TestUser;
const as = (user: TestUser): Credentials => ({ username: user.username, password: user.password });
const admin: Credentials = { username: ADMIN_USER, password: ADMIN_PASSWORD };
const ids: Record<string, string> = {};
let albumId = '';
let artistId = '';

beforeAll(async () => {
  alice = await makeUser(t, { role: 'User' });
  bob = await makeUser(t, { role: 'User' });
  // New accounts share their statistics; Bob chooses not to (until a test below).
  expect((await postJson(t, '/api/users/settings', { publicStats: false }, bob.token)).status).toBe(200);
  const body = await ok(t, as(alice), 'search3', { query: 'tone', songCount: '10' });
  for (const song of (
    body.searchResult3 as { song: Array<{ id: string; title: string; albumId: string; artistId: string }> }
  ).song) {
    ids[song.title] = song.id;
    albumId = song.albumId;
    artistId = song.artistId;
  }
});

describe('scrobble', () => {
  it('refuses a time before 2002-10-01, such as seconds sent instead of milliseconds, and logs nothing', async () => {
    const dave = await makeUser(t, { role: 'User' });
    const seconds = Math.floor(t.clock.now() / 1000);
    const before = await t.call('/api/stats/listening-time', { token: dave.token });
    const { plays } = (await before.json()) as { plays: number };
    for (const time of [seconds, Date.UTC(2002, 8, 30)]) {
      const refused = await subsonicOnce(
        t,
        'scrobble',
        { ...{ u: dave.username, p: dave.password }, id: ids['Tone MP3']!, time: String(time) },
        'json',
      );
      expect(refused.error?.code).toBe(0);
      expect(refused.error?.message).toMatch(/milliseconds.*2002-10-01/);
    }
    const after = await t.call('/api/stats/listening-time', { token: dave.token });
    expect(((await after.json()) as { plays: number }).plays).toBe(plays);
  });

  it('logs several id/time pairs as plays, each once even when the player retries', async () => {
    const base = t.clock.now() - 3_600_000;
    const params = {
      id: [ids['Tone MP3']!, ids['Tone FLAC']!],
      time: [String(base), String(base + 180_000)],
      c: 'Car stereo',
    };
    await subsonicOnce(t, 'scrobble', { u: alice.username, p: alice.password, ...params }, 'xml');
    // The retry of a scrobble with times is recognised, as log-play's retries are.
    await subsonicOnce(t, 'scrobble', { u: alice.username, p: alice.password, ...params }, 'json');
    const recent = (await (
      await t.call('/api/stats/recent-tracks', { token: alice.token })
    ).json()) as Array<{
      device: string;
      playedAt: string;
      track: { name: string };
    }>;
    expect(recent.map((play) => [play.track.name, play.playedAt, play.device])).toEqual([
      ['Tone FLAC', new Date(base + 180_000).toISOString(), 'Car stereo'],
      ['Tone MP3', new Date(base).toISOString(), 'Car stereo'],
    ]);
  });

  it('checks every id before logging any', async () => {
    const reply = await subsonicOnce(
      t,
      'scrobble',
      { u: bob.username, p: bob.password, id: [ids['Tone WAV']!, 'missing-track'] },
      'json',
    );
    expect(reply.error?.code).toBe(70);
    const recent = (await (
      await t.call('/api/stats/recent-tracks', { token: bob.token })
    ).json()) as unknown[];
    expect(recent).toEqual([]);
  });

  it('with submission=false says what is playing, to those who may see the listener', async () => {
    await ok(t, as(bob), 'scrobble', { id: ids['Tone OGG']!, submission: 'false', c: 'Kitchen' });
    const own = (await ok(t, as(bob), 'getNowPlaying')).nowPlaying as {
      entry: Array<Record<string, unknown>>;
    };
    expect(own.entry).toEqual([
      expect.objectContaining({
        id: ids['Tone OGG'],
        username: bob.username,
        playerName: 'Kitchen',
        minutesAgo: 0,
      }),
    ]);
    // Bob's statistics are private: Alice does not see him; the Admin does.
    expect((await ok(t, as(alice), 'getNowPlaying')).nowPlaying).toEqual({ entry: [] });
    const seen = (await ok(t, admin, 'getNowPlaying')).nowPlaying as { entry: Array<{ username: string }> };
    expect(seen.entry.map((entry) => entry.username)).toEqual([bob.username]);
    // Not a play.
    const recent = (await (
      await t.call('/api/stats/recent-tracks', { token: bob.token })
    ).json()) as unknown[];
    expect(recent).toEqual([]);
  });
});

describe('getTopSongs', () => {
  it('sums the plays of listeners whose statistics the caller may read, by artist name or id', async () => {
    const at = t.clock.now() - 600_000;
    for (let i = 0; i < 3; i++)
      await subsonicOnce(
        t,
        'scrobble',
        { u: bob.username, p: bob.password, id: ids['Tone WAV']!, time: String(at + i) },
        'json',
      );
    const mine = (await ok(t, as(alice), 'getTopSongs', { artist: 'aurora lane' })).topSongs as {
      song: Array<{ title: string }>;
    };
    expect(mine.song.map((song) => song.title)).toEqual(['Tone FLAC', 'Tone MP3']);
    // Bob makes his statistics public: his three plays now count for Alice too.
    expect((await postJson(t, '/api/users/settings', { publicStats: true }, bob.token)).status).toBe(200);
    const household = (await ok(t, as(alice), 'getTopSongs', { id: artistId, count: '1' })).topSongs as {
      song: Array<{ title: string }>;
    };
    expect(household.song.map((song) => song.title)).toEqual(['Tone WAV']);
    expect((await ok(t, as(alice), 'getTopSongs', { artist: 'Nobody At All' })).topSongs).toEqual({});
  });
});

describe('ratings and favourites of albums and artists', () => {
  it('rates an album 5 (Melon 10) and an artist 1 (Melon 2); 0 removes', async () => {
    await ok(t, as(alice), 'setRating', { id: albumId, rating: '5' });
    await ok(t, as(alice), 'setRating', { id: artistId, rating: '1' });
    const album = (await (await t.call(`/api/albums/${albumId}`, { token: alice.token })).json()) as {
      userRating: number;
    };
    const artist = (await (await t.call(`/api/artists/${artistId}`, { token: alice.token })).json()) as {
      userRating: number;
    };
    expect([album.userRating, artist.userRating]).toEqual([10, 2]);
    const highest = (await ok(t, as(alice), 'getAlbumList2', { type: 'highest' })).albumList2 as {
      album: Array<{ id: string; userRating: number }>;
    };
    expect(highest.album).toEqual([expect.objectContaining({ id: albumId, userRating: 5 })]);
    await ok(t, as(alice), 'setRating', { id: albumId, rating: '0' });
    expect((await ok(t, as(alice), 'getAlbumList2', { type: 'highest' })).albumList2).toEqual({ album: [] });
    const bad = await subsonicOnce(
      t,
      'setRating',
      { u: alice.username, p: alice.password, id: albumId, rating: '6' },
      'json',
    );
    expect(bad.error?.code).toBe(0);
  });

  it("keeps each user's stars apart, and unstars ids that are gone", async () => {
    await ok(t, as(alice), 'star', { albumId, artistId });
    expect((await ok(t, as(bob), 'getStarred')).starred).toEqual({ artist: [], album: [], song: [] });
    const starred = (await ok(t, as(alice), 'getStarred')).starred as {
      album: Array<{ id: string; isDir: boolean }>;
      artist: Array<{ id: string }>;
    };
    expect(starred.album.map((album) => [album.id, album.isDir])).toEqual([[albumId, true]]);
    expect(starred.artist.map((artist) => artist.id)).toEqual([artistId]);
    await ok(t, as(alice), 'unstar', { id: ['gone-long-ago', albumId], artistId });
    expect((await ok(t, as(alice), 'getStarred2')).starred2).toEqual({ artist: [], album: [], song: [] });
  });
});

describe('play queue', () => {
  it('refuses a current track outside the queue, and an empty save clears it', async () => {
    const refused = await subsonicOnce(
      t,
      'savePlayQueue',
      { u: alice.username, p: alice.password, id: ids['Tone MP3']!, current: ids['Tone WAV']! },
      'json',
    );
    expect(refused.error?.code).toBe(0);
    await ok(t, as(alice), 'savePlayQueue', { id: ids['Tone MP3']! });
    expect((await ok(t, as(alice), 'getPlayQueue')).playQueue).toMatchObject({ username: alice.username });
    expect((await ok(t, as(bob), 'getPlayQueue')).playQueue).toBeUndefined();
    await ok(t, as(alice), 'savePlayQueue', {});
    expect((await ok(t, as(alice), 'getPlayQueue')).playQueue).toBeUndefined();
  });
});

describe('a deleted account', () => {
  it('takes its favourites, play queue and ratings with it, and nobody else’s', async () => {
    const carol = await makeUser(t, { role: 'User' });
    await ok(t, as(carol), 'star', { id: ids['Tone MP3']!, albumId });
    await ok(t, as(carol), 'savePlayQueue', { id: ids['Tone MP3']! });
    await ok(t, as(carol), 'setRating', { id: ids['Tone MP3']!, rating: '4' });
    await ok(t, as(alice), 'star', { id: ids['Tone FLAC']! });
    await ok(t, as(alice), 'savePlayQueue', { id: ids['Tone FLAC']! });
    const files = async () =>
      Promise.all(
        ['favourites.json', 'play-queues.json', 'ratings.json'].map((name) =>
          readFile(join(t.dataDir, name), 'utf8'),
        ),
      );
    for (const file of await files()) expect(file).toContain(carol.id);

    expect((await postForm(t, '/api/users/delete', { id: carol.id }, t.adminToken)).status).toBe(200);
    for (const file of await files()) expect(file).not.toContain(carol.id);
    expect((await ok(t, as(alice), 'getStarred2')).starred2).toMatchObject({
      song: [{ id: ids['Tone FLAC'] }],
    });
    expect((await ok(t, as(alice), 'getPlayQueue')).playQueue).toMatchObject({ username: alice.username });
  });
});
