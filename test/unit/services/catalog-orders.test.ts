import { describe, expect, it } from 'vitest';
import type { AlbumRecord, LibraryIndex, TrackRecord } from '../../../server/domain/library.js';
import { LibraryCatalog } from '../../../server/services/library-catalog.js';

/** A small seeded generator (mulberry32), so the library is the same on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A library full of ties: few album names (some equal but for case or accents), few years (some
 * missing), few file times, genres spelled in several cases, albums without tracks.
 */
function tiedLibrary(seed: number, albumCount = 120): LibraryIndex {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const names = ['Blue', 'blue', 'Blué', 'Album 2', 'Album 10', 'Zebra', 'apple', 'Apple'];
  const genres = ['Rock', 'rock', 'ROCK', 'Jazz', 'jazz', 'Pop', 'Ambient'];
  const artists = Array.from({ length: 12 }, (_, i) => ({ id: `ar${i}`, name: pick(names) }));
  const albums: AlbumRecord[] = Array.from({ length: albumCount }, (_, i) => ({
    id: `al${String(i).padStart(3, '0')}`,
    name: pick(names),
    artistIds: next() < 0.1 ? [] : [pick(artists).id],
    year: next() < 0.15 ? null : pick([1970, 1985, 1999, 2000, 2024]),
  }));
  const tracks: TrackRecord[] = Array.from({ length: albumCount * 5 }, (_, i) => {
    const album = next() < 0.05 ? null : pick(albums.slice(0, Math.round(albumCount * 0.83)));
    return {
      id: `t${String(i).padStart(4, '0')}`,
      path: `/music/t${i}.mp3`,
      size: 1000,
      mtimeMs: pick([1000, 2000, 3000, 4000]),
      name: pick(names),
      albumId: album?.id ?? null,
      artistIds: next() < 0.2 ? [pick(artists).id, pick(artists).id] : [pick(artists).id],
      genres: next() < 0.1 ? [] : next() < 0.2 ? [pick(genres), pick(genres)] : [pick(genres)],
      durationMs: 180_000,
      trackNumber: (i % 12) + 1,
      discNumber: 1,
      year: album?.year ?? null,
      format: 'mp3',
      artwork: [],
    };
  });
  return { tracks, albums, artists };
}

// The orders as they were made per request before they were kept: each a filter and a sort of
// the whole name-sorted list.
const byName = (a: string, b: string) => a.localeCompare(b, 'en', { sensitivity: 'base', numeric: true });
const sameGenre = (a: string, b: string) => a.toLocaleLowerCase('en') === b.toLocaleLowerCase('en');

function newestByScan(catalog: LibraryCatalog): AlbumRecord[] {
  const added = (album: AlbumRecord) =>
    catalog.albumTracks(album.id).reduce((first, track) => Math.min(first, track.mtimeMs), Infinity);
  return [...catalog.albumsByName()].sort((a, b) => added(b) - added(a) || byName(a.name, b.name));
}

function byArtistByScan(catalog: LibraryCatalog): AlbumRecord[] {
  const artist = (album: AlbumRecord) => catalog.albumArtists(album.id)[0]?.name ?? '';
  return [...catalog.albumsByName()].sort((a, b) => byName(artist(a), artist(b)) || byName(a.name, b.name));
}

function yearsByScan(catalog: LibraryCatalog, from: number, to: number): AlbumRecord[] {
  const [low, high] = from <= to ? [from, to] : [to, from];
  const sign = from <= to ? 1 : -1;
  return catalog
    .albumsByName()
    .filter((album) => album.year !== null && album.year >= low && album.year <= high)
    .sort((a, b) => sign * (a.year! - b.year!) || byName(a.name, b.name));
}

function newestTracksByScan(catalog: LibraryCatalog): TrackRecord[] {
  return [...catalog.tracksByName()].sort(
    (a, b) => b.mtimeMs - a.mtimeMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

const ids = (items: readonly { id: string }[]) => items.map((item) => item.id);

describe('CatalogOrders', () => {
  const catalogs = [1, 2, 3].map((seed) => new LibraryCatalog(tiedLibrary(seed)));

  it('lists albums newest first as a sort of every album did, ties by name then as listed', () => {
    for (const catalog of catalogs)
      expect(ids(catalog.orders.newestAlbums())).toEqual(ids(newestByScan(catalog)));
  });

  it('lists albums by their first artist as a sort of every album did, ties included', () => {
    for (const catalog of catalogs)
      expect(ids(catalog.orders.albumsByArtist())).toEqual(ids(byArtistByScan(catalog)));
  });

  it('makes the newest and by-artist orders ahead, pausing between steps, as a read would make them', () => {
    const index = tiedLibrary(4, 3000);
    const ahead = new LibraryCatalog(index);
    const steps = ahead.orders.ahead();
    let pauses = 0;
    while (!steps.next().done) pauses += 1;
    expect(pauses).toBeGreaterThan(20);
    const atOnce = new LibraryCatalog(index);
    expect(ids(ahead.orders.newestAlbums())).toEqual(ids(newestByScan(atOnce)));
    expect(ids(ahead.orders.albumsByArtist())).toEqual(ids(byArtistByScan(atOnce)));
  });

  it('lists tracks newest file first, ties by id, as a sort of every track did', () => {
    for (const catalog of catalogs)
      expect(ids(catalog.orders.tracksByNewest())).toEqual(ids(newestTracksByScan(catalog)));
  });

  it('makes the newest tracks ahead, pausing between steps, and a read then finishes or reuses it', () => {
    const index = tiedLibrary(6, 3000);
    const catalog = new LibraryCatalog(index);
    expect(catalog.orders.hasTracksByNewest()).toBe(false);
    const steps = catalog.orders.tracksByNewestAhead();
    let pauses = 0;
    while (!steps.next().done) pauses += 1;
    expect(pauses).toBeGreaterThan(20);
    expect(catalog.orders.hasTracksByNewest()).toBe(true);
    const newest = catalog.orders.tracksByNewest();
    expect(ids(newest)).toEqual(ids(newestTracksByScan(new LibraryCatalog(index))));
    expect(catalog.orders.tracksByNewest()).toBe(newest);
    expect(catalog.orders.tracksByNewestAhead().next().done).toBe(true);

    const interrupted = new LibraryCatalog(index);
    const part = interrupted.orders.tracksByNewestAhead();
    for (let i = 0; i < 5; i++) part.next();
    expect(ids(interrupted.orders.tracksByNewest())).toEqual(ids(newest));
    while (!part.next().done);
    expect(ids(interrupted.orders.tracksByNewest())).toEqual(ids(newest));
  });

  it('lets a read finish an order being made ahead, and the warm-up then ends without sorting again', () => {
    const catalog = new LibraryCatalog(tiedLibrary(5, 3000));
    const steps = catalog.orders.ahead();
    for (let i = 0; i < 5; i++) steps.next();
    const newest = catalog.orders.newestAlbums();
    expect(ids(newest)).toEqual(ids(newestByScan(catalog)));
    while (!steps.next().done);
    expect(catalog.orders.newestAlbums()).toBe(newest);
    expect(ids(catalog.orders.albumsByArtist())).toEqual(ids(byArtistByScan(catalog)));
  });

  it('lists every album latest year first, yearless last, as a sort of every album did', () => {
    for (const catalog of catalogs)
      expect(ids(catalog.orders.albumsByYear())).toEqual(
        ids(
          [...catalog.albumsByName()].sort(
            (a, b) => (b.year ?? -1) - (a.year ?? -1) || byName(a.name, b.name),
          ),
        ),
      );
  });

  it('lists the albums of a span of years in either direction, as a filter and sort did', () => {
    const spans = [
      [1970, 2024],
      [2024, 1970],
      [1985, 1999],
      [1999, 1985],
      [2000, 2000],
      [1900, 1950],
      [0, 9999],
    ] as const;
    for (const catalog of catalogs)
      for (const [from, to] of spans)
        expect(ids(catalog.orders.albumsOfYears(from, to))).toEqual(ids(yearsByScan(catalog, from, to)));
  });

  it('lists the albums and tracks of a genre whatever its case, each once, by name', () => {
    for (const catalog of catalogs) {
      for (const genre of ['rock', 'ROCK', 'Jazz', 'pop', 'Ambient', 'Metal']) {
        expect(ids(catalog.orders.albumsOfGenre(genre))).toEqual(
          ids(
            catalog
              .albumsByName()
              .filter((album) => catalog.albumStats(album.id).genres.some((g) => sameGenre(g, genre))),
          ),
        );
        expect(ids(catalog.orders.tracksOfGenre(genre))).toEqual(
          ids(catalog.tracksByName().filter((track) => track.genres.some((g) => sameGenre(g, genre)))),
        );
      }
      expect(catalog.orders.albumsOfGenre('Metal')).toEqual([]);
    }
  });

  it("lists an artist's tracks by name, each once, as a filter of every track did", () => {
    for (const catalog of catalogs)
      for (const artist of [...catalog.artistsByName(), { id: 'ar-none' }])
        expect(ids(catalog.orders.tracksOfArtist(artist.id))).toEqual(
          ids(catalog.tracksByName().filter((track) => track.artistIds.includes(artist.id))),
        );
  });

  it('gives the same list to every read of one snapshot, and a list a caller cannot change', () => {
    const catalog = catalogs[0]!;
    expect(catalog.orders.newestAlbums()).toBe(catalog.orders.newestAlbums());
    const years = catalog.orders.albumsOfYears(1970, 2024);
    years.reverse();
    expect(ids(catalog.orders.albumsOfYears(1970, 2024))).toEqual(ids(yearsByScan(catalog, 1970, 2024)));
  });

  it("tells when an album's first track came, and Infinity for an album without tracks", () => {
    const catalog = catalogs[0]!;
    for (const album of catalog.albumsByName()) {
      const times = catalog.albumTracks(album.id).map((track) => track.mtimeMs);
      expect(catalog.albumAddedMs(album.id)).toBe(times.length === 0 ? Infinity : Math.min(...times));
    }
    expect(catalog.albumAddedMs('al119')).toBe(Infinity);
  });
});
