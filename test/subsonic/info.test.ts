import { beforeAll, describe, expect, it } from 'vitest';
import { album, artist, fakeScanner, libraryOf, track } from '../factories/library.js';
import { makeUser, type TestUser } from '../factories/users.js';
import { postForm, useTestServer } from '../support/server.js';
import { failsWith, ok, restUrl, type Credentials } from './support.js';
import { xsdErrors } from './xsd.js';

/**
 * Artist and album information and similar songs, made from what the household plays, and the
 * methods for what Melon does not have (podcasts, shares, jukebox), which answer as apps
 * expect instead of 70. Every answer in XML and JSON, and the XML against the 1.16.1 XSD.
 */
const scanner = fakeScanner(
  libraryOf([
    artist('ar1', 'Aurora Lane', [album('al1', 'First Light', [track('t1', 'Dawn'), track('t2', 'Noon')])]),
    artist('ar2', 'Birch Choir', [album('al2', 'Woods', [track('t3', 'Leaves')])]),
    artist('ar3', 'Cedar Quartet', [track('t4', 'Strings')]),
    artist('ar4', 'Dune Radio', [track('t5', 'Static')]),
  ]),
);
const t = useTestServer({ scanner });

let alice: TestUser;
let me: Credentials;

async function play(user: TestUser, trackId: string, times: number): Promise<void> {
  for (let i = 0; i < times; i += 1) {
    const at = new Date(t.clock.now() - (i + 1) * 60_000 - trackId.charCodeAt(1) * 1000).toISOString();
    const response = await postForm(t, '/api/stats/log-play', { id: trackId, dateTime: at }, user.token);
    expect(response.status).toBe(200);
  }
}

async function xml(method: string, params: Record<string, string>): Promise<string> {
  return (await fetch(restUrl(t, method, { u: alice.username, p: alice.password, ...params }))).text();
}

beforeAll(async () => {
  alice = await makeUser(t, { username: 'alice' });
  const bob = await makeUser(t, { username: 'bob' });
  const carol = await makeUser(t, { username: 'carol' });
  me = { username: alice.username, password: alice.password };
  // Alice: Aurora Lane 3 of her 6 plays, Birch Choir 3. Bob: Aurora Lane 1 of 5, Cedar Quartet 4.
  // Carol (private): Aurora Lane 1 of 10, Dune Radio 9.
  await play(alice, 't1', 2);
  await play(alice, 't2', 1);
  await play(alice, 't3', 3);
  await play(bob, 't1', 1);
  await play(bob, 't4', 4);
  await play(carol, 't1', 1);
  await play(carol, 't5', 9);
  await postForm(t, '/api/users/settings', { publicStats: 'false' }, carol.token);
});

describe('getArtistInfo and getArtistInfo2', () => {
  it('list as similar the artists played by those who play this one, from the statistics the caller may read', async () => {
    // Alice's own weight for Aurora Lane is 3/6, so Birch Choir scores 0.5 × 3 = 1.5; Bob's is 1/5, so
    // Cedar Quartet scores 0.2 × 4 = 0.8. Carol's statistics are private to Alice.
    const info = await ok(t, me, 'getArtistInfo2', { id: 'ar1' });
    const similar = (info.artistInfo2 as { similarArtist: Array<{ id: string; name: string }> })
      .similarArtist;
    expect(similar.map((artist) => artist.id)).toEqual(['ar2', 'ar3']);
    expect(similar[0]).toMatchObject({ name: 'Birch Choir', albumCount: 1 });
    // An Admin reads Carol's too: Dune Radio scores 0.1 × 9 = 0.9, between the two.
    const admin = await ok(
      t,
      { username: 'admin', password: 'correct horse battery staple' },
      'getArtistInfo',
      {
        id: 'ar1',
      },
    );
    expect(
      (admin.artistInfo as { similarArtist: Array<{ id: string }> }).similarArtist.map((a) => a.id),
    ).toEqual(['ar2', 'ar4', 'ar3']);
    const limited = await ok(t, me, 'getArtistInfo2', { id: 'ar1', count: '1' });
    expect((limited.artistInfo2 as { similarArtist: unknown[] }).similarArtist).toHaveLength(1);
  });

  it('gives the stored picture as image URLs the app can load with its own sign-in', async () => {
    const info = await ok(t, me, 'getArtistInfo2', { id: 'ar1' });
    const urls = info.artistInfo2 as Record<string, string>;
    expect(urls.smallImageUrl).toContain(`${t.url}/rest/getCoverArt.view?id=ar-ar1&size=150&`);
    expect(urls.mediumImageUrl).toContain('size=300');
    expect(urls.largeImageUrl).toContain('size=600');
    const picture = await fetch(urls.largeImageUrl!);
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toMatch(/^image\//);
  });

  it('validate against the XSD, and an unknown artist is 70', async () => {
    expect(await xsdErrors(await xml('getArtistInfo', { id: 'ar1' }))).toBe('');
    expect(await xsdErrors(await xml('getArtistInfo2', { id: 'ar1' }))).toBe('');
    await failsWith(t, me, 'getArtistInfo2', { id: 'nobody' }, 70);
    await failsWith(t, me, 'getArtistInfo2', {}, 10);
  });
});

describe('getAlbumInfo and getAlbumInfo2', () => {
  it('give the album cover as image URLs, for an album or one of its songs', async () => {
    for (const method of ['getAlbumInfo', 'getAlbumInfo2']) {
      const info = await ok(t, me, method, { id: 'al1' });
      expect((info.albumInfo as Record<string, string>).smallImageUrl).toContain('id=al-al1&size=150');
      const bySong = await ok(t, me, method, { id: 't2' });
      expect((bySong.albumInfo as Record<string, string>).largeImageUrl).toContain('id=al-al1&size=600');
      expect(await xsdErrors(await xml(method, { id: 'al1' }))).toBe('');
    }
    await failsWith(t, me, 'getAlbumInfo2', { id: 't4' }, 70);
    await failsWith(t, me, 'getAlbumInfo2', { id: 'no-album' }, 70);
  });
});

describe('getSimilarSongs and getSimilarSongs2', () => {
  it('play the artist and the similar artists, most played in the household first, without the seed song', async () => {
    // Readable plays for Alice: t3 3 (hers), t4 4 (Bob's), t2 1; t1 is the seed.
    const similar = await ok(t, me, 'getSimilarSongs2', { id: 't1' });
    expect((similar.similarSongs2 as { song: Array<{ id: string }> }).song.map((song) => song.id)).toEqual([
      't4',
      't3',
      't2',
    ]);
    const byArtist = await ok(t, me, 'getSimilarSongs', { id: 'ar1', count: '2' });
    expect((byArtist.similarSongs as { song: Array<{ id: string }> }).song.map((song) => song.id)).toEqual([
      't4',
      't1',
    ]);
    expect(await xsdErrors(await xml('getSimilarSongs', { id: 't1' }))).toBe('');
    expect(await xsdErrors(await xml('getSimilarSongs2', { id: 'ar1' }))).toBe('');
    await failsWith(t, me, 'getSimilarSongs2', { id: 'nothing' }, 70);
  });
});

describe('what Melon does not have', () => {
  it.each([
    ['getPodcasts', 'podcasts'],
    ['getNewestPodcasts', 'newestPodcasts'],
    ['getShares', 'shares'],
  ])('answers %s with an empty %s list', async (method, element) => {
    const answer = await ok(t, me, method);
    expect(answer[element]).toEqual({});
    expect(await xsdErrors(await xml(method, {}))).toBe('');
  });

  it.each(['createPodcastChannel', 'refreshPodcasts', 'createShare', 'deleteShare', 'jukeboxControl'])(
    'refuses %s with 50 "not authorized", as getUser says it has no podcast, share or jukebox role',
    async (method) => {
      const params = { url: 'http://example.invalid/feed', id: 'x', action: 'status' };
      expect(await failsWith(t, me, method, params, 50)).toMatch(/Melon has no/);
    },
  );
});
