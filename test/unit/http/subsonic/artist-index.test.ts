import type * as Zlib from 'node:zlib';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import type { LibraryIndex } from '../../../../server/domain/library.js';
import {
  ArtistIndexAnswers,
  IGNORED_ARTICLES,
  indexGroups,
} from '../../../../server/http/subsonic/artist-index.js';
import { Presenter } from '../../../../server/http/subsonic/presenter.js';
import { envelope, render } from '../../../../server/http/subsonic/render.js';
import type { Services } from '../../../../server/services/create-services.js';
import { LibraryService } from '../../../../server/services/library-service.js';
import { principalWithRole } from '../../../factories/accounts.js';
import { fakeScanner, makeLibrary } from '../../../factories/library.js';
import { newTestService } from '../../../fakes/test-service.js';

/** The gzips running at once, and the most seen: zlib's own gzip, counted. */
const gzips = vi.hoisted(() => ({ running: 0, most: 0 }));
vi.mock('node:zlib', async (importOriginal) => {
  const zlib = await importOriginal<typeof Zlib>();
  const gzip = (input: Buffer, options: object, done: (error: Error | null, result: Buffer) => void) => {
    gzips.running += 1;
    gzips.most = Math.max(gzips.most, gzips.running);
    zlib.gzip(input, options, (error, result) => {
      gzips.running -= 1;
      done(error, result);
    });
  };
  return { ...zlib, gzip };
});

const id = (n: number) => n.toString(16).padStart(16, 'a');

function library(count: number, prefix: string): LibraryIndex {
  const artists = Array.from({ length: count }, (_, i) => ({ id: id(i), name: `${prefix} ${i}` }));
  return makeLibrary({
    artists,
    albums: [{ id: id(1_000_000), name: 'Album', artistIds: [artists[0]!.id] }],
    tracks: [{ id: id(2_000_000), albumId: id(1_000_000), artistIds: [artists[0]!.id] }],
  });
}

const caller = principalWithRole('User', 'u1');

/** getArtists as presenting every artist and rendering the whole answer gives. */
function whole(services: Services): string {
  const present = new Presenter(services, caller);
  const index = indexGroups(services.library.snapshot().artistsByName()).map(([name, artists]) => ({
    name,
    artist: artists.map((artist) => present.artist(artist)),
  }));
  const payload = { artists: { ignoredArticles: IGNORED_ARTICLES.join(' '), index } };
  return render('json', envelope('ok', services.version, payload)).text;
}

const asked = (answers: ArtistIndexAnswers, services: Services) =>
  answers.answer('getArtists', 'json', new Presenter(services, caller)).body.toString();

describe('ArtistIndexAnswers', () => {
  it('answers the whole library while a warm-up is under way, and after it', async () => {
    const { services } = newTestService(LibraryService, { library: library(3_000, 'The Band') });
    const answers = new ArtistIndexAnswers(services);
    const warming = answers.warm();
    await new Promise((resolve) => setImmediate(resolve));
    expect(asked(answers, services)).toBe(whole(services));
    await warming;
    expect(asked(answers, services)).toBe(whole(services));
    expect(answers.keptBytes).toBeGreaterThan(whole(services).length);
  });

  it('answers the library a rescan left, whatever a warm-up of the one before had made', async () => {
    const scanner = fakeScanner(library(3_000, 'Old'));
    const { services } = newTestService(LibraryService, { library: library(3_000, 'Old'), scanner });
    const answers = new ArtistIndexAnswers(services);
    await answers.warm();
    const warming = answers.warm();
    scanner.set(library(2_000, 'New'));
    services.library.startScan();
    await services.library.waitForIdle();
    expect(asked(answers, services)).toBe(whole(services));
    expect(asked(answers, services)).toContain('"New 1999"');
    await warming;
    await answers.warm();
    expect(asked(answers, services)).toBe(whole(services));
  });

  it('keeps nothing beyond its byte budget', () => {
    const { services } = newTestService(LibraryService, { library: library(3_000, 'Band') });
    const answers = new ArtistIndexAnswers(services, 1_000);
    expect(asked(answers, services)).toBe(whole(services));
    expect(answers.keptBytes).toBe(0);
  });

  it('gzips the answers made together one after another, and sends each gzipped once done', async () => {
    const { services } = newTestService(LibraryService, { library: library(3_000, 'Band') });
    const answers = new ArtistIndexAnswers(services);
    const present = new Presenter(services, caller);
    const keys = [
      ['getArtists', 'json'],
      ['getArtists', 'xml'],
      ['getIndexes', 'json'],
      ['getIndexes', 'xml'],
    ] as const;
    // Other tests' answers may still be compressing in the pool.
    await vi.waitUntil(() => gzips.running === 0, { timeout: 5_000 });
    gzips.most = 0;
    for (const [method, format] of keys) answers.answer(method, format, present, true);
    await answers.compressed();
    expect(gzips.most).toBe(1);
    for (const [method, format] of keys) {
      const sent = answers.answer(method, format, present, true);
      expect(sent.encoding, `${method} ${format}`).toBe('gzip');
      expect(gunzipSync(sent.body).equals(answers.answer(method, format, present).body)).toBe(true);
    }
  });

  it('keeps an answer that fits its budget as it is when its gzipped copy would not fit beside it', async () => {
    const { services } = newTestService(LibraryService, { library: library(3_000, 'Band') });
    const present = new Presenter(services, caller);
    const roomy = new ArtistIndexAnswers(services);
    roomy.answer('getArtists', 'json', present);
    const plain = roomy.keptBytes;
    await roomy.compressed();
    const withGzip = roomy.keptBytes;
    expect(withGzip).toBeGreaterThan(plain);

    const tight = new ArtistIndexAnswers(services, Math.floor((plain + withGzip) / 2));
    tight.answer('getArtists', 'json', present, true);
    await tight.compressed();
    expect(tight.keptBytes).toBe(plain);
    const sent = tight.answer('getArtists', 'json', present, true);
    expect(sent.encoding).toBeUndefined();
    expect(sent.body.toString()).toBe(whole(services));
    expect(tight.keptBytes).toBe(plain);
  });
});
