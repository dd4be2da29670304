import sharp from 'sharp';
import { SubsonicAPI } from 'subsonic-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser, type TestUser } from '../factories/users.js';
import { copyFixtureLibrary } from '../support/fixture-library.js';
import { useTestServer } from '../support/server.js';
import { apiKeyFor, checkingFetch, ok, type Credentials } from './support.js';

/**
 * A Subsonic client written by others (the `subsonic-api` package) drives Melon with a listener's
 * API key (OpenSubsonic apiKeyAuthentication) over real HTTP, on the real fixture library (Aurora Lane's "Fixture Album":
 * six two-second tones in six formats, and an untagged "Lonely Song").
 */
let music: string;
const t = useTestServer(async () => {
  music = (await copyFixtureLibrary('melon-subsonic-')).library;
  return { config: { libraryDirs: [music] } };
});

/** Methods that change nothing, or change it the same way twice: their XML twin is asked for too. */
const TWIN_SAFE = new Set([
  'ping',
  'getArtists',
  'getArtist',
  'getAlbum',
  'getSong',
  'search3',
  'getStarred2',
  'getPlaylists',
  'getPlaylist',
  'getPlayQueue',
  'savePlayQueue',
  'setRating',
  'star',
  'getIndexes',
  'getMusicDirectory',
  'getAlbumList2',
  'getGenres',
]);

let listener: TestUser;
let me: Credentials;
let client: SubsonicAPI;
let fetcher: ReturnType<typeof checkingFetch>;
let apiKey: string;

beforeAll(async () => {
  listener = await makeUser(t, { role: 'User', username: 'kitchen-listener' });
  me = { username: listener.username, password: listener.password };
  apiKey = await apiKeyFor(t, listener.token, 'Kitchen phone');
  fetcher = checkingFetch({ twin: (method) => TWIN_SAFE.has(method) });
  client = new SubsonicAPI({ url: t.url, auth: { apiKey }, fetch: fetcher });
});

describe('a Subsonic client', () => {
  it('pings, with the OpenSubsonic envelope', async () => {
    const pong = await client.ping();
    expect(pong).toMatchObject({ status: 'ok', version: '1.16.1', type: 'melon', openSubsonic: true });
    expect((pong as { serverVersion?: string }).serverVersion).toBe(t.server.config.version);
  });

  it('browses artists, then an album, then its songs', async () => {
    const { artists } = await client.getArtists();
    const all = artists.index!.flatMap((index) => index.artist ?? []);
    const aurora = all.find((artist) => artist.name === 'Aurora Lane');
    expect(aurora).toBeDefined();
    expect(artists.index!.map((index) => index.name)).toContain('A');

    const { artist } = (await client.getArtist({ id: aurora!.id })) as {
      artist: NonNullable<Awaited<ReturnType<SubsonicAPI['getArtist']>>['artist']>;
    };
    const album = artist.album!.find((candidate) => candidate.name === 'Fixture Album');
    expect(album).toMatchObject({ songCount: 6, year: 2021, artist: 'Aurora Lane' });
    expect(album!.coverArt).toBe(`al-${album!.id}`);

    const { album: full } = await client.getAlbum({ id: album!.id });
    const titles = full.song!.map((song) => song.title);
    expect(titles).toEqual(['Tone MP3', 'Tone FLAC', 'Tone M4A', 'Tone OGG', 'Tone OPUS', 'Tone WAV']);
    const mp3 = full.song![0]!;
    expect(mp3).toMatchObject({
      parent: album!.id,
      albumId: album!.id,
      album: 'Fixture Album',
      track: 1,
      discNumber: 1,
      year: 2021,
      suffix: 'mp3',
      contentType: 'audio/mpeg',
      duration: 2,
      isDir: false,
      type: 'music',
      playCount: 0,
    });
    // Relative to the library folder: never the machine's path.
    expect(mp3.path).toBe('Aurora Lane/Fixture Album/01 - Tone MP3.mp3');
    expect(mp3.path!.startsWith('/')).toBe(false);
    // The package types OpenSubsonic's genres as strings; the spec (ItemGenre) has objects.
    const genres = mp3.genres as unknown as Array<{ name: string }>;
    expect(genres.map((genre) => genre.name)).toEqual(['Synthpop', 'Ambient']);
    expect(mp3.artists?.map((a) => a.name)).toEqual(['Aurora Lane', 'The Static']);
    expect(mp3.size).toBeGreaterThan(0);
    expect(mp3.bitRate).toBeGreaterThan(0);

    const { song } = await client.getSong({ id: mp3.id });
    expect(song.title).toBe('Tone MP3');
  });

  it('searches with search3, and an empty query lists everything', async () => {
    const { searchResult3 } = await client.search3({ query: 'tone fl' });
    expect(searchResult3.song?.map((song) => song.title)).toEqual(['Tone FLAC']);
    const everything = await client.search3({ query: '""', songCount: 100 });
    expect(everything.searchResult3.song).toHaveLength(7);
    expect(everything.searchResult3.album?.map((album) => album.name)).toContain('Fixture Album');
  });

  it('scrobbles a play that the native statistics then show, with the client as device', async () => {
    const { song } = await client.getSong({ id: await trackId('Tone OGG') });
    const at = t.clock.now() - 60_000;
    await client.scrobble({ id: song.id, time: at });
    const response = await t.call('/api/stats/recent-tracks', { token: listener.token });
    const recent = (await response.json()) as Array<{
      playedAt: string;
      device: string;
      track: { id: string };
    }>;
    expect(recent[0]).toMatchObject({ playedAt: new Date(at).toISOString(), device: 'subsonic-api' });
    expect(recent[0]!.track.id).toBe(song.id);
    const again = await client.getSong({ id: song.id });
    expect(again.song.playCount).toBe(1);
  });

  it('rates 4 stars, which Melon keeps as 8', async () => {
    const id = await trackId('Tone FLAC');
    await client.setRating({ id, rating: 4 });
    const response = await t.call(`/api/tracks/${id}`, { token: listener.token });
    expect(((await response.json()) as { userRating: number }).userRating).toBe(8);
    expect((await client.getSong({ id })).song.userRating).toBe(4);
  });

  it('stars a song, an album and an artist, and lists them with getStarred2', async () => {
    const songId = await trackId('Tone WAV');
    const { song } = await client.getSong({ id: songId });
    await client.star({ id: songId, albumId: song.albumId, artistId: song.artistId });
    const { starred2 } = await client.getStarred2();
    expect(starred2.song?.map((s) => s.id)).toEqual([songId]);
    expect(starred2.album?.map((a) => a.id)).toEqual([song.albumId]);
    expect(starred2.artist?.map((a) => a.id)).toEqual([song.artistId]);
    expect(starred2.song![0]!.starred).toBeInstanceOf(Date);
    await client.unstar({ id: songId });
    expect((await client.getStarred2()).starred2.song ?? []).toEqual([]);
  });

  it('makes, changes and deletes a playlist', async () => {
    const ids = [await trackId('Tone MP3'), await trackId('Tone OPUS')];
    const { playlist } = await client.createPlaylist({ name: 'Car', songId: ids });
    expect(playlist).toMatchObject({ name: 'Car', songCount: 2, owner: listener.username });
    await client.updatePlaylist({ playlistId: playlist.id, name: 'Long drive', songIndexToRemove: [0] });
    const { playlists } = await client.getPlaylists();
    expect(playlists.playlist?.map((p) => p.name)).toContain('Long drive');
    const changed = await client.getPlaylist({ id: playlist.id });
    expect(changed.playlist.entry?.map((entry) => entry.id)).toEqual([ids[1]]);
    await client.deletePlaylist({ id: playlist.id });
    const gone = await client.getPlaylist({ id: playlist.id });
    expect(gone).toMatchObject({ status: 'failed', error: { code: 70 } });
  });

  it('saves a play queue in the kitchen and picks it up in the car', async () => {
    const ids = [await trackId('Tone M4A'), await trackId('Tone OGG')];
    await client.savePlayQueue({ id: ids, current: ids[1], position: 1234 });
    // The car has its own key of the same account.
    const car = new SubsonicAPI({
      url: t.url,
      auth: { apiKey: await apiKeyFor(t, listener.token, 'Car') },
      fetch: fetcher,
    });
    const { playQueue } = await car.getPlayQueue();
    expect(playQueue).toBeDefined();
    expect(playQueue).toMatchObject({ current: ids[1], position: 1234, username: listener.username });
    expect(playQueue!.changedBy).toBe('subsonic-api');
    expect(playQueue!.entry?.map((entry) => entry.id)).toEqual(ids);
  });

  it('gets a cover, resized on request', async () => {
    const { song } = await client.getSong({ id: await trackId('Tone MP3') });
    const full = await client.getCoverArt({ id: song.coverArt! });
    expect(full.headers.get('content-type')).toBe('image/png');
    expect((await sharp(Buffer.from(await full.arrayBuffer())).metadata()).width).toBe(64);
    // Sizes snap up to a step (docs/API.md, Subsonic): 16 px is served as the smallest, 64 px.
    const small = await client.getCoverArt({ id: `al-${song.albumId}`, size: 16 });
    const meta = await sharp(Buffer.from(await small.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([64, 64]);
  });

  it('sends the same answers by form POST (formPost), signed in with a plain password', async () => {
    const post = new SubsonicAPI({
      url: t.url,
      auth: { username: listener.username, password: listener.password },
      post: true,
      fetch: checkingFetch({ twin: () => false, password: listener.password }),
    });
    const { artists } = await post.getArtists();
    expect(artists.index!.length).toBeGreaterThan(0);
    const { openSubsonicExtensions } = await post.getOpenSubsonicExtensions();
    expect(openSubsonicExtensions.map((extension) => extension.name)).toEqual(
      expect.arrayContaining(['formPost', 'apiKeyAuthentication']),
    );
  });

  it('had its answers checked in XML too', () => {
    expect(new Set(fetcher.xmlChecked)).toEqual(
      new Set(
        [...TWIN_SAFE].filter(
          (m) => !['getIndexes', 'getMusicDirectory', 'getAlbumList2', 'getGenres'].includes(m),
        ),
      ),
    );
  });
});

describe('browsing the folder way and the lists', () => {
  it('walks getIndexes → artist → album → songs', async () => {
    const { indexes } = await ok(t, me, 'getIndexes');
    const artists = (
      indexes as { index: Array<{ artist: Array<{ id: string; name: string }> }> }
    ).index.flatMap((index) => index.artist);
    const aurora = artists.find((artist) => artist.name === 'Aurora Lane')!;
    const artistDir = (await ok(t, me, 'getMusicDirectory', { id: aurora.id })).directory as {
      child: Array<{ id: string; isDir: boolean; title: string }>;
    };
    const album = artistDir.child.find((child) => child.title === 'Fixture Album')!;
    expect(album.isDir).toBe(true);
    const albumDir = (await ok(t, me, 'getMusicDirectory', { id: album.id })).directory as {
      parent: string;
      child: Array<{ title: string; isDir: boolean }>;
    };
    expect(albumDir.parent).toBe(aurora.id);
    expect(albumDir.child.map((c) => c.title)).toContain('Tone WAV');
  });

  it.each([
    'newest',
    'alphabeticalByName',
    'alphabeticalByArtist',
    'frequent',
    'recent',
    'starred',
    'highest',
  ])('lists albums of type %s', async (type) => {
    await ok(t, me, 'getAlbumList2', { type });
  });

  it("lists albums by year, genre and at random, frequent from the caller's own plays", async () => {
    const frequent = (await ok(t, me, 'getAlbumList2', { type: 'frequent' })).albumList2 as {
      album: Array<{ name: string; playCount: number }>;
    };
    expect(frequent.album.map((a) => a.name)).toEqual(['Fixture Album']);
    expect(frequent.album[0]!.playCount).toBe(1);
    const byYear = (await ok(t, me, 'getAlbumList2', { type: 'byYear', fromYear: '2020', toYear: '2022' }))
      .albumList2 as { album: Array<{ name: string }> };
    expect(byYear.album.map((a) => a.name)).toEqual(['Fixture Album']);
    const byGenre = (await ok(t, me, 'getAlbumList', { type: 'byGenre', genre: 'ambient' })).albumList as {
      album: Array<{ title: string; isDir: boolean }>;
    };
    expect(byGenre.album).toEqual([expect.objectContaining({ title: 'Fixture Album', isDir: true })]);
    await ok(t, me, 'getAlbumList2', { type: 'random' }, { compare: false });
    const genres = (await ok(t, me, 'getGenres')).genres as {
      genre: Array<{ value: string; songCount: number }>;
    };
    expect(genres.genre).toContainEqual(expect.objectContaining({ value: 'Synthpop', songCount: 6 }));
  });
});

async function trackId(name: string): Promise<string> {
  const { searchResult3 } = await client.search3({ query: name, artistCount: 0, albumCount: 0 });
  const song = searchResult3.song?.find((candidate) => candidate.title === name);
  if (!song) throw new Error(`no song ${name}`);
  return song.id;
}
