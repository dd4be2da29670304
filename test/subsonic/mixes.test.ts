import { beforeAll, describe, expect, it } from 'vitest';
import type { Mix, MixList } from '../../server/contract/mixes.js';
import { makeUser, type TestUser } from '../factories/users.js';
import { copyFixtureLibrary } from '../support/fixture-library.js';
import { postJson, useTestServer } from '../support/server.js';
import { failsWith, ok, restUrl, type Credentials } from './support.js';
import { xsdErrors } from './xsd.js';

/**
 * Melon's mixes as Subsonic apps see them: playlists of the owner "Melon" with ids starting `mix-`,
 * the same tracks as the native API lists, which no app can change.
 */
const t = useTestServer(async () => ({
  config: { libraryDirs: [(await copyFixtureLibrary('melon-subsonic-mixes-')).library] },
}));

interface ListedPlaylist {
  id: string;
  name: string;
  owner: string;
  readonly?: boolean;
  songCount: number;
  public: boolean;
}
type PlaylistsAnswer = { playlists: { playlist?: ListedPlaylist[] } };
type PlaylistAnswer = { playlist: ListedPlaylist & { entry?: Array<{ id: string }> } };

let alex: TestUser;
let wall: TestUser;
let me: Credentials;
let songs: string[];

const asCredentials = (user: TestUser): Credentials => ({ username: user.username, password: user.password });

async function nativeMix(user: TestUser, id: string): Promise<Mix> {
  const response = await t.call(`/api/mixes/${id}`, { token: user.token });
  expect(response.status).toBe(200);
  return (await response.json()) as Mix;
}

async function playlists(user: TestUser): Promise<ListedPlaylist[]> {
  const listed = (await ok(t, asCredentials(user), 'getPlaylists')) as unknown as PlaylistsAnswer;
  return listed.playlists.playlist ?? [];
}

beforeAll(async () => {
  alex = await makeUser(t);
  wall = await makeUser(t, { role: 'Pass' });
  me = asCredentials(alex);
  expect((await postJson(t, '/api/users/settings', { publicStats: true }, alex.token)).status).toBe(200);
  const found = (await ok(t, me, 'search3', { query: 'tone', songCount: '4' })) as unknown as {
    searchResult3: { song: Array<{ id: string }> };
  };
  songs = found.searchResult3.song.map((song) => song.id);
  expect(songs.length).toBeGreaterThanOrEqual(3);
  // Three plays of the first song and one of the second in the last hour.
  for (const [i, id] of [songs[0]!, songs[0]!, songs[1]!, songs[0]!].entries()) {
    const at = new Date(t.clock.now() - (i + 1) * 60_000).toISOString();
    expect((await postJson(t, '/api/stats/log-play', { id, dateTime: at }, alex.token)).status).toBe(200);
  }
});

describe('mixes in Subsonic apps', () => {
  it('lists the mixes that have tracks after the playlists, owned by Melon and read-only', async () => {
    await ok(t, me, 'createPlaylist', { name: 'Kitchen', songId: songs[2]! }, { compare: false });
    const listed = await playlists(alex);
    expect(listed[0]?.name).toBe('Kitchen');
    const mixes = listed.filter((playlist) => playlist.id.startsWith('mix-'));
    const native = (await (await t.call('/api/mixes', { token: alex.token })).json()) as MixList;
    expect(mixes.map((mix) => mix.id)).toEqual(native.items.map((mix) => mix.id));
    expect(mixes.map((mix) => mix.id)).toEqual(
      expect.arrayContaining(['mix-top-month', 'mix-on-repeat', 'mix-household', 'mix-new']),
    );
    for (const mix of mixes) {
      expect(mix).toMatchObject({ owner: 'Melon', readonly: true, public: false });
      expect(mix.songCount).toBe(native.items.find((item) => item.id === mix.id)!.trackIds.length);
    }
  });

  it('answers a mix’s songs in its order, the same as the native API', async () => {
    const read = (await ok(t, me, 'getPlaylist', { id: 'mix-on-repeat' })) as unknown as PlaylistAnswer;
    expect(read.playlist.entry?.map((song) => song.id)).toEqual([songs[0]!]);
    expect((await nativeMix(alex, 'mix-on-repeat')).trackIds).toEqual([songs[0]!]);
    const top = (await ok(t, me, 'getPlaylist', { id: 'mix-top-month' })) as unknown as PlaylistAnswer;
    expect(top.playlist.entry?.map((song) => song.id)).toEqual([songs[0]!, songs[1]!]);
    expect(top.playlist.name).toBe('Your top 50 this month');
  });

  it('refuses to change or delete a mix with error 50, and the mix stays as it was', async () => {
    const before = (await nativeMix(alex, 'mix-top-month')).trackIds;
    await failsWith(t, me, 'createPlaylist', { playlistId: 'mix-top-month', songId: songs[2]! }, 50);
    await failsWith(t, me, 'updatePlaylist', { playlistId: 'mix-top-month', songIdToAdd: songs[2]! }, 50);
    await failsWith(t, me, 'updatePlaylist', { playlistId: 'mix-top-month', name: 'Mine now' }, 50);
    await failsWith(t, me, 'deletePlaylist', { id: 'mix-top-month' }, 50);
    const after = await nativeMix(alex, 'mix-top-month');
    expect(after.trackIds).toEqual(before);
    expect(after.name).toBe('Your top 50 this month');
  });

  it('answers 70 for a mix id Melon does not make', async () => {
    await failsWith(t, me, 'getPlaylist', { id: 'mix-nothing' }, 70);
  });

  it("shows a Pass account the household's mixes", async () => {
    const read = (await ok(t, asCredentials(wall), 'getPlaylist', {
      id: 'mix-on-repeat',
    })) as unknown as PlaylistAnswer;
    expect(read.playlist.entry?.map((song) => song.id)).toEqual([songs[0]!]);
    expect((await playlists(wall)).find((mix) => mix.id === 'mix-new')?.name).toBe('New to the household');
  });

  it('leaves a hidden mix out of the list, and still answers it by id', async () => {
    const hide = await postJson(t, '/api/mixes/hide', { id: 'mix-on-repeat' }, alex.token);
    expect(hide.status).toBe(200);
    expect((await playlists(alex)).map((playlist) => playlist.id)).not.toContain('mix-on-repeat');
    await ok(t, me, 'getPlaylist', { id: 'mix-on-repeat' });
    await postJson(t, '/api/mixes/unhide', { id: 'mix-on-repeat' }, alex.token);
    expect((await playlists(alex)).map((playlist) => playlist.id)).toContain('mix-on-repeat');
  });

  it('answers getPlaylists and getPlaylist of a mix in XML that validates against the XSD', async () => {
    for (const [method, params] of [
      ['getPlaylists', {}],
      ['getPlaylist', { id: 'mix-top-month' }],
      ['getPlaylist', { id: 'mix-new' }],
    ] as const) {
      const response = await fetch(restUrl(t, method, { u: alex.username, p: alex.password, ...params }));
      expect(await xsdErrors(await response.text()), method).toBe('');
    }
  });
});
