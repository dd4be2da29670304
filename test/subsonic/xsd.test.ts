import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser, type TestUser } from '../factories/users.js';
import { copyFixtureLibrary } from '../support/fixture-library.js';
import { useTestServer } from '../support/server.js';
import { firstAlbumAndSong, ok, restUrl } from './support.js';
import { HAVE_XSD, SUBSONIC_XSD, xsdErrors } from './xsd.js';

/**
 * Every answer Melon gives in XML validates against the official Subsonic 1.16.1 XSD (with
 * xmllint), once OpenSubsonic's documented additions are set aside: what a strict client that
 * generated its parser from the XSD reads.
 */
const t = useTestServer(async () => ({
  config: { libraryDirs: [(await copyFixtureLibrary('melon-subsonic-xsd-')).library] },
}));

let user: TestUser;
let ids: { track: string; album: string; artist: string; playlist: string };

async function xml(method: string, params: Record<string, string | string[]> = {}): Promise<string> {
  const response = await fetch(restUrl(t, method, { u: user.username, p: user.password, ...params }));
  expect(response.status).toBe(200);
  return response.text();
}

beforeAll(async () => {
  user = await makeUser(t, { role: 'User' });
  const me = { username: user.username, password: user.password };
  const { album: first, track } = await firstAlbumAndSong(t, me);
  await ok(t, me, 'scrobble', { id: track, time: String(t.clock.now() - 60_000) }, { compare: false });
  await ok(t, me, 'star', { id: track, albumId: first.id, artistId: first.artistId });
  await ok(t, me, 'setRating', { id: track, rating: '4' });
  await ok(t, me, 'setRating', { id: first.id, rating: '3' });
  await ok(t, me, 'setRating', { id: first.artistId, rating: '5' });
  const made = (await ok(
    t,
    me,
    'createPlaylist',
    { name: 'Kitchen', songId: track },
    { compare: false },
  )) as unknown as {
    playlist: { id: string };
  };
  await ok(t, me, 'savePlayQueue', { id: track, current: track, position: '1000' });
  ids = { track, album: first.id, artist: first.artistId, playlist: made.playlist.id };
});

if (!HAVE_XSD) console.warn(`Subsonic XSD checks skipped: no schema at ${SUBSONIC_XSD}`);

describe.skipIf(!HAVE_XSD)('answers validate against the Subsonic 1.16.1 XSD', () => {
  const cases: Array<[string, () => Record<string, string>]> = [
    ['ping', () => ({})],
    ['getLicense', () => ({})],
    ['getMusicFolders', () => ({})],
    ['getUser', () => ({ username: user.username })],
    ['getIndexes', () => ({})],
    ['getMusicDirectory', () => ({ id: ids.artist })],
    ['getMusicDirectory', () => ({ id: ids.album })],
    ['getArtists', () => ({})],
    ['getArtist', () => ({ id: ids.artist })],
    ['getAlbum', () => ({ id: ids.album })],
    ['getSong', () => ({ id: ids.track })],
    ['getGenres', () => ({})],
    ['getTopSongs', () => ({ id: ids.artist })],
    ['getAlbumList', () => ({ type: 'frequent' })],
    ['getAlbumList2', () => ({ type: 'alphabeticalByName' })],
    ['getRandomSongs', () => ({})],
    ['getStarred', () => ({})],
    ['getStarred2', () => ({})],
    ['search2', () => ({ query: '' })],
    ['search3', () => ({ query: '' })],
    ['getPlaylists', () => ({})],
    ['getPlaylist', () => ({ id: ids.playlist })],
    ['getPlayQueue', () => ({})],
    ['getNowPlaying', () => ({})],
    ['getScanStatus', () => ({})],
    ['getAlbum', () => ({ id: 'no-such-album' })],
  ];
  for (const [index, [method, params]] of cases.entries())
    it(`${method} (case ${index + 1})`, async () => {
      expect(await xsdErrors(await xml(method, params()))).toBe('');
    });
});
