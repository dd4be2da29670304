import { describe, expect, it, vi } from 'vitest';
import type { LibraryIndex, TrackRecord } from '../../../server/domain/library.js';
import { LibraryService } from '../../../server/services/library-service.js';
import { album, artist, fakeScanner, libraryOf, track } from '../../factories/library.js';
import { scanLibrary } from '../../../server/library/scanner.js';
import { newTestService } from '../../fakes/test-service.js';
import { tempDirPerFile } from '../../support/temp-dir.js';
import { watchWorkers, writeAlbumFolders } from '../../support/worker-threads.js';

const temp = tempDirPerFile('melon-library-service-');
const workers = watchWorkers();

/**
 * Three albums of two tracks, each by its album's artist; album years, track genres and file
 * times as given.
 */
function library(changes: (index: LibraryIndex) => void = () => undefined): LibraryIndex {
  const index = libraryOf([
    artist('ar1', 'Beta Band', [
      album('al1', 'First', { year: 1990 }, [
        track('t1', 'Track t1', { genres: ['Rock'], mtimeMs: 3000 }),
        track('t2', 'Track t2', { genres: ['Jazz'], mtimeMs: 3500 }),
      ]),
      album('al3', 'Third', { year: 1990 }, [
        track('t5', 'Track t5', { genres: ['Pop'], mtimeMs: 1000 }),
        track('t6', 'Track t6', { genres: ['Pop'], mtimeMs: 1500 }),
      ]),
    ]),
    artist('ar2', 'Alpha Group', [
      album('al2', 'Second', { year: 2000 }, [
        track('t3', 'Track t3', { genres: ['rock'], mtimeMs: 2000 }),
        track('t4', 'Track t4', { genres: [], mtimeMs: 2500 }),
      ]),
    ]),
  ]);
  for (const record of index.tracks) record.artist = 'credit';
  changes(index);
  return index;
}

const ids = (items: readonly { id: string }[]) => items.map((item) => item.id);

function orders(sut: LibraryService) {
  return {
    newest: ids(sut.newestAlbums()),
    byArtist: ids(sut.albumsByArtist()),
    nineties: ids(sut.albumsOfYears(1990, 1999)),
    latestFirst: ids(sut.albumsOfYears(2010, 1980)),
    rockAlbums: ids(sut.albumsOfGenre('ROCK')),
    rockTracks: ids(sut.tracksOfGenre('rock')),
    popAlbums: ids(sut.albumsOfGenre('pop')),
  };
}

async function scanned(next: LibraryIndex) {
  const scanner = fakeScanner(library());
  const t = newTestService(LibraryService, { library: library(), scanner });
  scanner.set(next);
  t.sut.startScan();
  await t.sut.waitForIdle();
  return t.sut;
}

describe('LibraryService orders', () => {
  it('lists albums newest, by artist, by years and by genre from the library as it is', () => {
    const { sut } = newTestService(LibraryService, { library: library() });
    expect(orders(sut)).toEqual({
      newest: ['al1', 'al2', 'al3'],
      byArtist: ['al2', 'al1', 'al3'],
      nineties: ['al1', 'al3'],
      latestFirst: ['al2', 'al1', 'al3'],
      rockAlbums: ['al1', 'al2'],
      rockTracks: ['t1', 't3'],
      popAlbums: ['al3'],
    });
    expect(sut.albumAddedMs('al2')).toBe(2000);
  });

  it('keeps the orders right after a scan that adds, changes and removes tracks', async () => {
    const sut = await scanned(
      library((index) => {
        // A new rock track on the second album; the first album's rock track is gone; the second
        // album's is jazz now; the third album's files are new copies.
        const t3 = index.tracks.find((track) => track.id === 't3')!;
        index.tracks.push({ ...t3, id: 't7', path: '/music/t7.mp3', mtimeMs: 5000 });
        index.tracks = index.tracks
          .filter((track) => track.id !== 't1')
          .map((track): TrackRecord => {
            if (track.id === 't3') return { ...track, genres: ['Jazz'] };
            return track.albumId === 'al3' ? { ...track, mtimeMs: 9000 } : track;
          });
        index.albums = index.albums.map((album) => (album.id === 'al2' ? { ...album, year: 1995 } : album));
      }),
    );
    expect(orders(sut)).toEqual({
      newest: ['al3', 'al1', 'al2'],
      byArtist: ['al2', 'al1', 'al3'],
      nineties: ['al1', 'al3', 'al2'],
      latestFirst: ['al2', 'al1', 'al3'],
      rockAlbums: ['al2'],
      rockTracks: ['t7'],
      popAlbums: ['al3'],
    });
    expect(sut.albumAddedMs('al1')).toBe(3500);
    expect(sut.tracksOfGenre('jazz').map((track) => track.id)).toEqual(['t2', 't3']);
  });

  it('keeps the orders right after a track is replaced outside a scan', async () => {
    const { sut } = newTestService(LibraryService, { library: library() });
    expect(orders(sut).newest).toEqual(['al1', 'al2', 'al3']);
    await sut.replaceTrack({ ...sut.track('t1'), mtimeMs: 100 });
    await sut.replaceTrack({ ...sut.track('t5'), genres: ['Rock'] });
    expect(orders(sut).newest).toEqual(['al2', 'al3', 'al1']);
    expect(orders(sut).rockTracks).toEqual(['t1', 't3', 't5']);
    expect(orders(sut).rockAlbums).toEqual(['al1', 'al2', 'al3']);
  });

  it('has the album orders made before the first page asks, once warmed', async () => {
    const { sut } = newTestService(LibraryService, { library: library() });
    await sut.warmOrders();
    const read = vi.spyOn(sut.snapshot(), 'albumTracks');
    expect(orders(sut).newest).toEqual(['al1', 'al2', 'al3']);
    expect(orders(sut).byArtist).toEqual(['al2', 'al1', 'al3']);
    expect(read).not.toHaveBeenCalled();
  });

  it('drops an album whose tracks all went, and its artist count follows', async () => {
    const sut = await scanned(
      library((index) => {
        index.tracks = index.tracks.filter((track) => track.albumId !== 'al3');
        index.albums = index.albums.filter((album) => album.id !== 'al3');
      }),
    );
    expect(orders(sut).newest).toEqual(['al1', 'al2']);
    expect(orders(sut).popAlbums).toEqual([]);
    expect(sut.artistStats('ar1')).toEqual({ albumCount: 1, trackCount: 2 });
  });
});

describe('LibraryService on shutdown', () => {
  it('stops a rescan of a large library part-way through its walk, leaving no worker thread behind', async () => {
    // Enough folders that the walk lists the later ones in worker threads.
    const music = temp.path('music');
    await writeAlbumFolders(music);
    const { sut, logger } = newTestService(LibraryService, {
      scanner: (_dirs, previous, onProgress, signal) => scanLibrary([music], previous, onProgress, signal),
    });
    const started = workers.nextStart();
    sut.startScan();
    await started;
    await sut.stopScanning();
    expect(workers.running).toBe(0);
    await sut.waitForIdle();
    // A stop is not a failure: nothing is logged as one.
    expect(logger.lines.join('\n')).not.toContain('library scan failed');
  });
});
