import { beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock.js';
import { makeUser, type TestUser } from '../factories/users.js';
import { copyFixtureLibrary } from '../support/fixture-library.js';
import { ADMIN_PASSWORD, ADMIN_USER, postJson, useTestServer } from '../support/server.js';
import { expectGolden, normaliseAnswer } from './golden.js';
import { authParams, firstAlbumAndSong, ok, restUrl, subsonicOnce } from './support.js';
import { xsdErrors } from './xsd.js';

/**
 * Golden answers: each method's whole answer, in XML and in JSON, over the fixture library, as the
 * files in `golden/` show it, so a change to any attribute, element or order shows up as a diff a
 * reviewer can read next to the spec's example. `normaliseAnswer` is the only thing between the live
 * answer and the file. `UPDATE_GOLDEN=1` rewrites the files (test/README.md).
 */
const t = useTestServer(async () => ({
  clock: new ManualClock(Date.UTC(2026, 0, 1, 12)),
  config: { libraryDirs: [(await copyFixtureLibrary('melon-subsonic-golden-')).library] },
}));

let listener: TestUser;
let newcomer: TestUser;
let mixer: TestUser;
let ids: { track: string; album: string; artist: string };
/** Every run's track and playlist ids, to their stable names (`track-1` is the first by path). */
const stableNames = new Map<string, string>();

async function answer(
  user: TestUser,
  method: string,
  params: Record<string, string>,
  format: 'xml' | 'json',
) {
  const all = { u: user.username, p: user.password, ...params, ...(format === 'json' ? { f: 'json' } : {}) };
  const response = await fetch(restUrl(t, method, all));
  expect(response.status).toBe(200);
  return normaliseAnswer(await response.text(), format, stableNames);
}

beforeAll(async () => {
  listener = await makeUser(t, { username: 'listener', password: 'listener-password-1' });
  newcomer = await makeUser(t, { username: 'newcomer', password: 'newcomer-password-1' });
  const me = { username: listener.username, password: listener.password };
  const { album, track } = await firstAlbumAndSong(t, me);
  // Once, in JSON: `ok` asks in both formats, which would make two playlists.
  const made = (await subsonicOnce(
    t,
    'createPlaylist',
    { ...authParams(me), name: 'Kitchen', songId: track },
    'json',
  )) as unknown as { playlist: { id: string } };
  await ok(t, me, 'savePlayQueue', { id: track, current: track, position: '1000' });
  await ok(t, me, 'createBookmark', { id: track, position: '61000', comment: 'Half way' });
  await subsonicOnce(
    t,
    'createInternetRadioStation',
    {
      ...authParams({ username: ADMIN_USER, password: ADMIN_PASSWORD }),
      name: 'Jazz Night',
      streamUrl: 'https://radio.example.org/jazz.mp3',
      homepageUrl: 'https://radio.example.org/',
    },
    'json',
  );
  ids = { track, album: album.id, artist: album.artistId };
  const all = (await ok(t, me, 'search3', {
    query: '',
    songCount: '500',
    albumCount: '0',
    artistCount: '0',
  })) as unknown as {
    searchResult3: { song: Array<{ id: string; path: string }> };
  };
  const byPath = [...all.searchResult3.song].sort((a, b) => (a.path < b.path ? -1 : 1));
  for (const [index, song] of byPath.entries()) stableNames.set(song.id, `track-${index + 1}`);
  stableNames.set(made.playlist.id, 'playlist-1');
  const radio = (await ok(t, me, 'getInternetRadioStations')) as unknown as {
    internetRadioStations: { internetRadioStation: Array<{ id: string }> };
  };
  stableNames.set(radio.internetRadioStations.internetRadioStation[0]!.id, 'station-1');
  // Three plays of the first track and one of the second today: every mix but the older ones has songs.
  mixer = await makeUser(t, { username: 'mixer', password: 'mixer-password-1' });
  for (const [i, path] of [byPath[0]!, byPath[0]!, byPath[1]!, byPath[0]!].entries()) {
    const dateTime = new Date(t.clock.now() - (i + 1) * 60_000).toISOString();
    const logged = await postJson(t, '/api/stats/log-play', { id: path.id, dateTime }, mixer.token);
    expect(logged.status).toBe(200);
  }
});

/**
 * [file name, method, parameters, who asks]: the listener has a playlist, a saved queue and a
 * bookmark; the Admin added a radio station; the mixer played two tracks, so has mixes.
 */
const cases: Array<[string, string, () => Record<string, string>, () => TestUser]> = [
  ['ping', 'ping', () => ({}), () => listener],
  ['getLicense', 'getLicense', () => ({}), () => listener],
  ['getMusicFolders', 'getMusicFolders', () => ({}), () => listener],
  ['getOpenSubsonicExtensions', 'getOpenSubsonicExtensions', () => ({}), () => listener],
  ['getArtists', 'getArtists', () => ({}), () => listener],
  ['getArtist', 'getArtist', () => ({ id: ids.artist }), () => listener],
  ['getAlbum', 'getAlbum', () => ({ id: ids.album }), () => listener],
  ['getSong', 'getSong', () => ({ id: ids.track }), () => listener],
  ['getAlbumList2', 'getAlbumList2', () => ({ type: 'alphabeticalByName', size: '3' }), () => listener],
  [
    'search3',
    'search3',
    () => ({ query: '', songCount: '2', albumCount: '2', artistCount: '2' }),
    () => listener,
  ],
  ['getPlaylists', 'getPlaylists', () => ({}), () => listener],
  ['getPlaylists.mixes', 'getPlaylists', () => ({}), () => mixer],
  ['getPlaylist.mix', 'getPlaylist', () => ({ id: 'mix-on-repeat' }), () => mixer],
  ['getPlayQueue', 'getPlayQueue', () => ({}), () => listener],
  ['getPlayQueue.nothing-saved', 'getPlayQueue', () => ({}), () => newcomer],
  ['getBookmarks', 'getBookmarks', () => ({}), () => listener],
  ['getInternetRadioStations', 'getInternetRadioStations', () => ({}), () => listener],
];

describe('each answer matches its golden file', () => {
  for (const [name, method, params, who] of cases) {
    it(`${name} in JSON`, async () => {
      await expectGolden(`${name}.json`, await answer(who(), method, params(), 'json'));
    });
    it(`${name} in XML, which also validates against the Subsonic 1.16.1 XSD`, async () => {
      const xml = await answer(who(), method, params(), 'xml');
      await expectGolden(`${name}.xml`, xml);
      // The OpenSubsonic-only method's own element is not in the 1.16.1 XSD; its envelope is.
      expect(await xsdErrors(xml, ['openSubsonicExtensions'])).toBe('');
    });
  }
});

describe('a player asks for the queue of an account that never saved one', () => {
  it('gets a success with no playQueue, in XML and in JSON alike, not error 70', async () => {
    const body = await ok(t, { username: newcomer.username, password: newcomer.password }, 'getPlayQueue');
    expect(body.playQueue).toBeUndefined();
  });
});
