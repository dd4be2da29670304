import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { LibraryIndex } from '../../server/domain/library.js';
import { IGNORED_ARTICLES, indexGroups } from '../../server/http/subsonic/artist-index.js';
import { Presenter } from '../../server/http/subsonic/presenter.js';
import { envelope, render, type Format } from '../../server/http/subsonic/render.js';
import { principalOf } from '../factories/accounts.js';
import { fakeScanner, makeLibrary } from '../factories/library.js';
import { makeUser, type TestUser } from '../factories/users.js';
import { useTestServer } from '../support/server.js';
import { ok, restUrl, type Credentials } from './support.js';

/** Ids as the scanner makes them (16 hex digits): the methods that star and rate check their shape. */
const id = (n: number) => n.toString(16).padStart(16, 'a');

function library(artistNames: string[]): LibraryIndex {
  const artists = artistNames.map((name, i) => ({ id: id(100 + i), name }));
  return makeLibrary({
    artists,
    albums: artists.map((artist, i) => ({ id: id(200 + i), name: `Album ${i}`, artistIds: [artist.id] })),
    tracks: artists.map((artist, i) => ({ id: id(300 + i), albumId: id(200 + i), artistIds: [artist.id] })),
  });
}

const names = ['Aurora Lane', 'The Birch Choir', 'Beyoncé', '4 Seasons', 'Øya', 'Cedar & "Sons" <live>'];
const scanner = fakeScanner(library(names));
const t = useTestServer({ scanner });

const credentials = (user: TestUser): Credentials => ({ username: user.username, password: user.password });

async function answerText(user: TestUser, method: string, format: Format): Promise<string> {
  const params = { u: user.username, p: user.password, ...(format === 'json' ? { f: 'json' } : {}) };
  const response = await fetch(restUrl(t, method, params));
  expect(response.headers.get('content-type')).toBe(
    format === 'json' ? 'application/json; charset=utf-8' : 'text/xml; charset=utf-8',
  );
  return response.text();
}

/** The answer as presenting every artist for this caller and rendering the whole of it gives. */
function presentedWhole(user: TestUser, method: 'getArtists' | 'getIndexes', format: Format): string {
  const { services } = t.server;
  const present = new Presenter(services, principalOf(user));
  const snapshot = services.library.snapshot();
  const index = indexGroups(snapshot.artistsByName()).map(([name, artists]) => ({
    name,
    artist: artists.map((artist) =>
      method === 'getArtists' ? present.artist(artist) : present.indexArtist(artist),
    ),
  }));
  const ignoredArticles = IGNORED_ARTICLES.join(' ');
  const lastModified = Math.round(Math.max(0, ...snapshot.tracksByName().map((track) => track.mtimeMs)));
  const payload =
    method === 'getArtists'
      ? { artists: { ignoredArticles, index } }
      : { indexes: { ignoredArticles, lastModified, index } };
  return render(format, envelope('ok', services.version, payload)).text;
}

async function expectAsPresentedWhole(users: TestUser[]): Promise<void> {
  for (const user of users)
    for (const method of ['getArtists', 'getIndexes'] as const)
      for (const format of ['xml', 'json'] as const)
        expect(await answerText(user, method, format), `${user.username} ${method} ${format}`).toBe(
          presentedWhole(user, method, format),
        );
}

/** An answer's raw bytes and headers, asked with this Accept-Encoding (fetch would unpack it). */
function rawAnswer(
  user: TestUser,
  method: string,
  acceptEncoding: string | null,
  params: Record<string, string> = {},
): Promise<{ bytes: Buffer; encoding: string | undefined; vary: string | undefined }> {
  const url = restUrl(t, method, { u: user.username, p: user.password, f: 'json', ...params });
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> =
      acceptEncoding === null ? {} : { 'accept-encoding': acceptEncoding };
    const sent = request(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () =>
        resolve({
          bytes: Buffer.concat(chunks),
          encoding: response.headers['content-encoding'],
          vary: response.headers.vary,
        }),
      );
    });
    sent.on('error', reject);
    sent.end();
  });
}

describe('getArtists and getIndexes, kept between requests', () => {
  it('go gzipped to a player that takes gzip, once compressed, and as they are to others and to a listener with stars', async () => {
    const [listener, starring] = [await makeUser(t), await makeUser(t)];
    await ok(t, credentials(starring), 'star', { artistId: [id(101)] });
    for (const method of ['getArtists', 'getIndexes'] as const) {
      const plain = await rawAnswer(listener, method, null);
      expect(plain.encoding).toBeUndefined();
      expect(plain.vary).toBe('Accept-Encoding');
      expect(plain.bytes.toString()).toBe(presentedWhole(listener, method, 'json'));
      // Compressed in the thread pool after the answer was made: the first requests get it as it is.
      let gzipped = await rawAnswer(listener, method, 'gzip, deflate, br');
      for (let tries = 0; gzipped.encoding === undefined && tries < 100; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        gzipped = await rawAnswer(listener, method, 'gzip, deflate, br');
      }
      expect(gzipped.encoding).toBe('gzip');
      expect(gzipped.vary).toBe('Accept-Encoding');
      expect(gunzipSync(gzipped.bytes).equals(plain.bytes)).toBe(true);
      expect((await rawAnswer(listener, method, 'gzip;q=0, identity')).encoding).toBeUndefined();
      expect((await rawAnswer(listener, method, 'identity')).encoding).toBeUndefined();
      const personal = await rawAnswer(starring, method, 'gzip');
      expect(personal.encoding).toBeUndefined();
      expect(personal.bytes.toString()).toBe(presentedWhole(starring, method, 'json'));
    }
  });

  it('say getIndexes varies with Accept-Encoding also when nothing changed since the player last asked', async () => {
    const listener = await makeUser(t);
    const unchanged = await rawAnswer(listener, 'getIndexes', 'gzip', {
      ifModifiedSince: String(Number.MAX_SAFE_INTEGER),
    });
    expect(unchanged.encoding).toBeUndefined();
    expect(unchanged.vary).toBe('Accept-Encoding');
    const answer = JSON.parse(unchanged.bytes.toString()) as {
      'subsonic-response': { status: string; indexes: { index?: unknown; lastModified: number } };
    };
    expect(answer['subsonic-response'].status).toBe('ok');
    expect(answer['subsonic-response'].indexes.index).toBeUndefined();
  });

  it("give each listener their own stars and ratings, and everyone's averages, as they change", async () => {
    const [alice, bob] = [await makeUser(t), await makeUser(t)];
    await expectAsPresentedWhole([alice, bob]);

    await ok(t, credentials(alice), 'star', { artistId: [id(101), id(104)] });
    await ok(t, credentials(bob), 'setRating', { id: id(102), rating: '4' });
    await ok(t, credentials(alice), 'setRating', { id: id(102), rating: '2' });
    const starred = await answerText(alice, 'getArtists', 'json');
    expect(starred.match(/"starred"/g)).toHaveLength(2);
    await expectAsPresentedWhole([alice, bob]);

    await ok(t, credentials(alice), 'unstar', { artistId: id(101) });
    await ok(t, credentials(bob), 'setRating', { id: id(102), rating: '0' });
    await expectAsPresentedWhole([alice, bob]);
  });

  it('show the library as a rescan left it, and ratings taken back after it', async () => {
    const user = await makeUser(t);
    await ok(t, credentials(user), 'star', { artistId: id(100) });
    await ok(t, credentials(user), 'setRating', { id: id(101), rating: '5' });
    await expectAsPresentedWhole([user]);
    scanner.set(library([...names.slice(0, 3), 'Zephyr', 'Les Rita Mitsouko']));
    t.server.services.library.startScan();
    await t.server.services.library.waitForIdle();
    const artists = await answerText(user, 'getArtists', 'json');
    expect(artists).toContain('Zephyr');
    expect(artists).not.toContain('Øya');
    await expectAsPresentedWhole([user]);
    await ok(t, credentials(user), 'setRating', { id: id(101), rating: '0' });
    await expectAsPresentedWhole([user]);
  });

  it('answer in full while they are being made, in steps, after a rescan of a larger library', async () => {
    const user = await makeUser(t);
    const many = Array.from({ length: 1_500 }, (_, i) => `${['The ', '', 'Les '][i % 3]}Band ${i}`);
    scanner.set(library(many));
    t.server.services.library.startScan();
    await t.server.services.library.waitForIdle();
    // The warm-up after the scan has only begun: these requests finish what it started.
    const [artists, indexes] = await Promise.all([
      answerText(user, 'getArtists', 'xml'),
      answerText(user, 'getIndexes', 'json'),
    ]);
    expect(artists).toBe(presentedWhole(user, 'getArtists', 'xml'));
    expect(indexes).toBe(presentedWhole(user, 'getIndexes', 'json'));
    await expectAsPresentedWhole([user]);
  });
});
