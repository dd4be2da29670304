import { mkdir, mkdtemp, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '../../server/contract/common.js';
import type { Track } from '../../server/contract/library.js';
import { makeUser, type TestUser } from '../factories/users.js';
import { postForm, startTestServer, type TestServer } from '../support/server.js';
import { retagFlac, writeTaggedFlac } from '../support/tagged-audio.js';
import { ok } from '../subsonic/support.js';

/**
 * Artists as credited: a library of FLAC files tagged as taggers write them (an ARTIST credit, and
 * for some an ARTISTS list), scanned by the real scanner.
 */
let root: string;
let music: string;
let t: TestServer;
let user: TestUser;

const FILES = {
  boxer: { TITLE: 'The Boxer', ARTIST: 'Simon & Garfunkel', ALBUM: 'Bridge over Troubled Water' },
  september: { TITLE: 'September', ARTIST: 'Earth, Wind & Fire', ALBUM: 'The Best of' },
  earfquake: { TITLE: 'EARFQUAKE', ARTIST: 'Tyler, The Creator', ALBUM: 'IGOR' },
  crazy: { TITLE: 'Crazy in Love', ARTIST: 'Beyoncé feat. JAY-Z', ALBUM: 'Dangerously in Love' },
  acdc: { TITLE: 'Thunderstruck', ARTIST: 'AC/DC', ALBUM: 'The Razors Edge' },
};
const fileOf = (name: keyof typeof FILES) => join(music, `${name}.flac`);

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'melon-credits-'));
  music = join(root, 'music');
  await mkdir(music);
  for (const [name, tags] of Object.entries(FILES)) await writeTaggedFlac(join(music, `${name}.flac`), tags);
  t = await startTestServer({ config: { libraryDirs: [music] }, dataDir: join(root, 'data') });
  user = await makeUser(t);
});
afterAll(async () => {
  await t.stop();
  await rm(root, { recursive: true, force: true });
});

async function get<T>(path: string, token = user.token): Promise<T> {
  const response = await t.call(path, { token });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as T;
}

async function scan(): Promise<void> {
  const started = await t.call('/api/library/scan', { method: 'POST', token: t.adminToken });
  expect(started.status).toBe(202);
  await t.server.services.library.waitForIdle();
}

const trackNamed = async (name: string) =>
  (await get<Page<Track>>(`/api/tracks?q=${encodeURIComponent(name)}`)).items.find((i) => i.name === name)!;

describe('artists as credited', () => {
  it('keeps names with & and commas whole, and splits only on ; / feat. ft.', async () => {
    const names = (await get<Page<{ name: string }>>('/api/artists?limit=100')).items.map((a) => a.name);
    expect(names.sort()).toEqual(
      ['AC/DC', 'Beyoncé', 'Earth, Wind & Fire', 'JAY-Z', 'Simon & Garfunkel', 'Tyler, The Creator'].sort(),
    );
    const crazy = await trackNamed('Crazy in Love');
    expect(crazy.artist).toBe('Beyoncé feat. JAY-Z');
    expect(crazy.artists.map((a) => a.name)).toEqual(['Beyoncé', 'JAY-Z']);
    expect((await trackNamed('September')).artist).toBe('Earth, Wind & Fire');
  });

  it('gives Subsonic players the credit as the song artist and the separate artists in `artists`', async () => {
    const crazy = await trackNamed('Crazy in Love');
    const { song } = (await ok(t, { username: user.username, password: user.password }, 'getSong', {
      id: crazy.id,
    })) as unknown as {
      song: { artist: string; displayArtist: string; artistId: string; artists: Array<{ name: string }> };
    };
    expect(song.artist).toBe('Beyoncé feat. JAY-Z');
    expect(song.displayArtist).toBe('Beyoncé feat. JAY-Z');
    expect(song.artists.map((a) => a.name)).toEqual(['Beyoncé', 'JAY-Z']);
    expect(song.artistId).toBe(crazy.artists[0]!.id);
  });

  it('exports the credit whole, as ListenBrainz and Last.fm name the artist', async () => {
    const boxer = await trackNamed('The Boxer');
    const september = await trackNamed('September');
    for (const track of [boxer, september])
      expect((await postForm(t, '/api/stats/log-play', { id: track.id }, user.token)).status).toBe(200);
    const response = await t.call('/api/stats/export?format=listenbrainz', { token: user.token });
    expect(response.status).toBe(200);
    const artists = (await response.text())
      .trim()
      .split('\n')
      .map(
        (line) =>
          (JSON.parse(line) as { track_metadata: { artist_name: string } }).track_metadata.artist_name,
      );
    expect(artists.sort()).toEqual(['Earth, Wind & Fire', 'Simon & Garfunkel']);
  });

  it('moves the plays of a track whose credit is split anew at a rescan to its new artists, losing none', async () => {
    const listener = await makeUser(t);
    const boxer = await trackNamed('The Boxer');
    for (let i = 0; i < 3; i += 1)
      expect((await postForm(t, '/api/stats/log-play', { id: boxer.id }, listener.token)).status).toBe(200);
    const counts = async (token: string) => {
      const top = await get<Array<{ name: string; plays: number }>>(`/api/stats/top-artists?count=50`, token);
      const albums = await get<Array<{ id: string; plays: number }>>(`/api/stats/top-albums?count=50`, token);
      const time = await get<{ plays: number }>('/api/stats/listening-time', token);
      return {
        top: top.map(({ name, plays }) => ({ name, plays })),
        albums: albums.map(({ id, plays }) => ({ id, plays })),
        plays: time.plays,
      };
    };
    expect(await counts(listener.token)).toEqual({
      top: [{ name: 'Simon & Garfunkel', plays: 3 }],
      albums: [{ id: boxer.album!.id, plays: 3 }],
      plays: 3,
    });

    // The same credit, now with the ARTISTS list Picard writes: the duo's two members.
    retagFlac(fileOf('boxer'), { ...FILES.boxer, ARTISTS: ['Paul Simon', 'Art Garfunkel'] });
    const later = new Date(Date.now() + 60_000);
    await utimes(fileOf('boxer'), later, later);
    await scan();
    const retagged = await trackNamed('The Boxer');
    expect(retagged.id).toBe(boxer.id);
    // The album is keyed by its (first) artist, now "Paul Simon": its plays move with the track.
    expect(retagged.album!.id).not.toBe(boxer.album!.id);
    const members = {
      top: [
        { name: 'Art Garfunkel', plays: 3 },
        { name: 'Paul Simon', plays: 3 },
      ],
      albums: [{ id: retagged.album!.id, plays: 3 }],
      plays: 3,
    };
    const sorted = (c: Awaited<ReturnType<typeof counts>>) => ({
      ...c,
      top: [...c.top].sort((a, b) => a.name.localeCompare(b.name)),
    });
    expect(sorted(await counts(listener.token))).toEqual(members);

    // A new play counts with the old ones, and a restart (the index loaded again) keeps them so.
    expect((await postForm(t, '/api/stats/log-play', { id: boxer.id }, listener.token)).status).toBe(200);
    t = await t.restart();
    expect(sorted(await counts(listener.token))).toEqual({
      top: members.top.map((artist) => ({ ...artist, plays: 4 })),
      albums: [{ id: retagged.album!.id, plays: 4 }],
      plays: 4,
    });
  });
});
