import type { LibraryService } from '../library-service.js';
import type { StatsIndex } from '../stats/stats-index.js';
import type { MixSource } from './mix-rules.js';

/** The mixes' reads, answered by the statistics index (ranked ranges, kept all-time sums) and the library. */
export function indexSource(index: StatsIndex, library: LibraryService): MixSource {
  let lastCatalog: object | null = null;
  let catalogs = 0;
  return {
    topTracks: (userId, from, to, limit) => index.topTracks({ userId, from, to }, 0, limit),
    latestPlays: (userId) => index.latestPlays(userId),
    prepare: async (userId) => {
      await library.readyTracksByNewest();
      await index.prepareListener(userId);
    },
    version: () => {
      const catalog = library.snapshot();
      if (catalog !== lastCatalog) {
        lastCatalog = catalog;
        catalogs += 1;
      }
      return `${index.size}:${catalogs}`;
    },
    hasTrack: (id) => library.hasTrack(id),
    newestTracks: () => library.tracksByNewest(),
  };
}
