import { createHash, randomInt } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { NewApiKey } from '../../server/contract/users.js';
import { makeUser } from '../factories/users.js';
import { copyFixtureLibrary } from '../support/fixture-library.js';
import { postJson, useTestServer } from '../support/server.js';
import type { SubsonicBody } from './support.js';

/**
 * Sublime Music (the GTK desktop app) as it talks to a server in its default token mode: every
 * request on a `.view` path, in JSON, with `c=Sublime Music`, a new eight-character salt and
 * `t = md5(password + salt)`, and `v=1.8.0` until its first `ping` has told it the server's version.
 * Its password here is an app password, the only one Melon can check a token against.
 */
const t = useTestServer(async () => ({
  config: { libraryDirs: [(await copyFixtureLibrary('melon-subsonic-sublime-')).library] },
}));

const SALT_CHARACTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

let username: string;
let appPassword: string;
let version = '1.8.0';

type Named = { id: string; name: string };
type Song = { id: string; playCount?: number };
type AlbumEntry = Named & { coverArt: string };
type PlaylistAnswer = { playlist: Named & { entry: Song[] } };

function sublimeUrl(method: string, params: Record<string, string | number | string[]>): string {
  const salt = Array.from({ length: 8 }, () => SALT_CHARACTERS[randomInt(SALT_CHARACTERS.length)]).join('');
  const search = new URLSearchParams({ u: username, c: 'Sublime Music', f: 'json', v: version });
  search.set('s', salt);
  search.set('t', md5(appPassword + salt));
  for (const [key, value] of Object.entries(params))
    for (const item of Array.isArray(value) ? value : [value]) search.append(key, String(item));
  return `${t.url}/rest/${method}.view?${search.toString()}`;
}

/** One JSON request, as the app's `_get_json` makes it: anything but `status: ok` is a failure. */
async function sublime<T = object>(
  method: string,
  params: Record<string, string | number | string[]> = {},
): Promise<SubsonicBody & T> {
  const response = await fetch(sublimeUrl(method, params));
  expect(response.status, `${method}: HTTP status`).toBe(200);
  const body = ((await response.json()) as { 'subsonic-response': SubsonicBody })['subsonic-response'];
  expect(body.error, `${method}: ${JSON.stringify(body.error)}`).toBeUndefined();
  expect(body.status).toBe('ok');
  version = String(body.version);
  return body as SubsonicBody & T;
}

beforeAll(async () => {
  const member = await makeUser(t, { role: 'User', username: 'desk-listener' });
  username = member.username;
  const made = await postJson(t, '/api/users/api-keys/create', { name: 'Sublime Music' }, member.token);
  expect(made.status).toBe(201);
  appPassword = ((await made.json()) as NewApiKey).key;
});

describe('Sublime Music in token mode, with an app password', () => {
  it('pings at v=1.8.0, learns 1.16.1, then fills its album grid, artists and folders', async () => {
    const pong = await sublime('ping');
    expect(pong.version).toBe('1.16.1');

    const { artists } = await sublime<{
      artists: { ignoredArticles: string; index: Array<{ artist: Named[] }> };
    }>('getArtists');
    expect(artists.ignoredArticles).toBe('The El La Los Las Le Les');
    const aurora = artists.index
      .flatMap((index) => index.artist)
      .find((artist) => artist.name === 'Aurora Lane')!;
    const { artist } = await sublime<{ artist: { album: Named[] } }>('getArtist', { id: aurora.id });
    expect(artist.album).toHaveLength(1);
    const info = await sublime<{ artistInfo2: { largeImageUrl: string } }>('getArtistInfo2', {
      id: aurora.id,
    });
    expect(info.artistInfo2.largeImageUrl).toMatch(/^http:\/\/.*\/rest\/getCoverArt/);

    const { genres } = await sublime<{ genres: { genre: Array<{ value: string }> } }>('getGenres');
    // Its album grid offers these lists; each is paged by 500 (random: one page of 50).
    const lists: Array<Record<string, string | number>> = [
      { type: 'random', size: 50 },
      ...['newest', 'frequent', 'recent', 'starred', 'alphabeticalByName', 'alphabeticalByArtist'].map(
        (type) => ({ type, size: 500 }),
      ),
      { type: 'byYear', size: 500, fromYear: 2020, toYear: 2029 },
      { type: 'byGenre', size: 500, genre: genres.genre[0]!.value },
    ];
    for (const list of lists) {
      const answer = await sublime<{ albumList2: { album?: AlbumEntry[] } }>('getAlbumList2', {
        ...list,
        offset: 0,
      });
      expect(answer.albumList2, `getAlbumList2 ${list.type}`).toBeDefined();
      if (!['frequent', 'recent', 'starred'].includes(String(list.type)))
        expect(answer.albumList2.album!.map((album) => album.name)).toContain('Fixture Album');
    }

    const byName = await sublime<{ albumList2: { album: AlbumEntry[] } }>('getAlbumList2', {
      type: 'alphabeticalByName',
      size: 500,
      offset: 0,
    });
    const album = byName.albumList2.album[0]!;
    const full = await sublime<{ album: { song: Song[] } }>('getAlbum', { id: album.id });
    expect(full.album.song).toHaveLength(6);
    // It refuses a picture sent as JSON.
    const cover = await fetch(sublimeUrl('getCoverArt', { id: album.coverArt, size: 300 }));
    expect(cover.status).toBe(200);
    expect(cover.headers.get('content-type')).toMatch(/^image\//);

    const { indexes } = await sublime<{ indexes: { index: Array<{ artist: Named[] }> } }>('getIndexes');
    const folder = indexes.index[0]!.artist[0]!;
    const directory = await sublime<{ directory: { child: Named[] } }>('getMusicDirectory', {
      id: folder.id,
    });
    expect(directory.directory.child.length).toBeGreaterThan(0);
  });

  it('keeps its play queue, edits and reorders a playlist, and logs a scrobble sent with only an id', async () => {
    const found = await sublime<{ searchResult3: { song: Song[] } }>('search3', { query: 'tone' });
    const ids = found.searchResult3.song.slice(0, 3).map((song) => song.id);

    await sublime('savePlayQueue', { id: ids, current: ids[1]!, position: 1500 });
    const { playQueue } = await sublime<{ playQueue: { entry: Song[] } }>('getPlayQueue');
    expect(playQueue).toMatchObject({ current: ids[1], position: 1500, changedBy: 'Sublime Music' });
    expect(playQueue.entry.map((song) => song.id)).toEqual(ids);

    const made = await sublime<PlaylistAnswer>('createPlaylist', { name: 'Desk', songId: ids.slice(0, 2) });
    const playlistId = made.playlist.id;
    await sublime('updatePlaylist', { playlistId, name: 'Desk mix', songIdToAdd: [ids[2]!] });
    // Reordering replaces the songs through createPlaylist with the playlist's id.
    const reordered = await sublime<PlaylistAnswer>('createPlaylist', {
      playlistId,
      songId: [ids[2]!, ids[0]!],
    });
    expect(reordered.playlist.name).toBe('Desk mix');
    expect(reordered.playlist.entry.map((song) => song.id)).toEqual([ids[2], ids[0]]);
    await sublime('deletePlaylist', { id: playlistId });

    const playCount = async () =>
      (await sublime<{ song: Song }>('getSong', { id: ids[0]! })).song.playCount ?? 0;
    const before = await playCount();
    await sublime('scrobble', { id: ids[0]! });
    expect(await playCount()).toBe(before + 1);
  });
});
