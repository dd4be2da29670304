import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../factories/users.js';
import { copyFixtureLibrary } from '../support/fixture-library.js';
import { useTestServer } from '../support/server.js';
import { ok, type Credentials } from './support.js';

/** Playlists as apps see them: `changed` moves on every change, so apps that cache them refresh. */
const t = useTestServer(async () => ({
  config: { libraryDirs: [(await copyFixtureLibrary('melon-subsonic-playlists-')).library] },
}));

let me: Credentials;
let songs: string[];

beforeAll(async () => {
  const user = await makeUser(t);
  me = { username: user.username, password: user.password };
  const found = (await ok(t, me, 'search3', { query: 'tone', songCount: '3' })) as unknown as {
    searchResult3: { song: Array<{ id: string }> };
  };
  songs = found.searchResult3.song.map((song) => song.id);
});

type PlaylistAnswer = { playlist: { id: string; created: string; changed: string } };

describe('a playlist’s changed date', () => {
  it('equals created at first, and moves on a rename, an added song, a removed song and a replacement', async () => {
    const made = (await ok(
      t,
      me,
      'createPlaylist',
      { name: 'Morning', songId: songs[0]! },
      { compare: false },
    )) as unknown as PlaylistAnswer;
    const { id, created } = made.playlist;
    expect(made.playlist.changed).toBe(created);
    let last = created;
    const changes: Array<[string, Record<string, string>]> = [
      ['updatePlaylist', { playlistId: id, name: 'Early morning' }],
      ['updatePlaylist', { playlistId: id, songIdToAdd: songs[1]! }],
      ['updatePlaylist', { playlistId: id, songIndexToRemove: '0' }],
      ['createPlaylist', { playlistId: id, songId: songs[2]! }],
    ];
    for (const [method, params] of changes) {
      t.clock.advance(61_000);
      await ok(t, me, method, params, { compare: false });
      const read = (await ok(t, me, 'getPlaylist', { id })) as unknown as PlaylistAnswer;
      expect(read.playlist.created).toBe(created);
      expect(Date.parse(read.playlist.changed), method).toBeGreaterThan(Date.parse(last));
      expect(read.playlist.changed).toBe(new Date(t.clock.now()).toISOString());
      last = read.playlist.changed;
    }
    const listed = (await ok(t, me, 'getPlaylists')) as unknown as {
      playlists: { playlist: PlaylistAnswer['playlist'][] };
    };
    expect(listed.playlists.playlist.find((playlist) => playlist.id === id)?.changed).toBe(last);
  });
});
