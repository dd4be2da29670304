import type { TrackRecord } from '../../domain/library.js';
import type { LibraryService } from '../library-service.js';
import type { StatsIndex } from '../stats/stats-index.js';
import type { MixSource } from './mix-rules.js';

/** The library's tracks, newest files first, per catalog: a catalog is replaced, never changed. */
const newestByCatalog = new WeakMap<object, readonly TrackRecord[]>();

/** The mixes' reads, answered by the statistics index (ranked ranges, kept all-time sums) and the library. */
export function indexSource(index: StatsIndex, library: LibraryService): MixSource {
  let lastCatalog: object | null = null;
  let catalogs = 0;
  return {
    topTracks: (userId, from, to, limit) => index.topTracks({ userId, from, to }, 0, limit),
    latestPlays: (userId) => index.latestPlays(userId),
    prepare: (userId) => index.prepareListener(userId),
    version: () => {
      const catalog = library.snapshot();
      if (catalog !== lastCatalog) {
        lastCatalog = catalog;
        catalogs += 1;
      }
      return `${index.size}:${catalogs}`;
    },
    hasTrack: (id) => library.hasTrack(id),
    newestTracks: () => {
      const catalog = library.snapshot();
      let newest = newestByCatalog.get(catalog);
      if (!newest) {
        newest = [...library.trackRecords()].sort(
          (a, b) => b.mtimeMs - a.mtimeMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
        );
        newestByCatalog.set(catalog, newest);
      }
      return newest;
    },
  };
}
