import { describe, expect, it } from 'vitest';
import { LibraryCatalog } from '../../../server/services/library-catalog.js';
import { makeLibrary } from '../../factories/library.js';

const index = makeLibrary({
  artists: [{ id: 'ar2' }, { id: 'ar1' }],
  albums: [
    { id: 'al2', artistIds: ['ar2'] },
    { id: 'al1', artistIds: ['ar1', 'ar2'] },
  ],
  tracks: [{ id: 't3' }, { id: 't1' }, { id: 't2' }],
});

/** Everything a read asks of a catalog. */
function reads(catalog: LibraryCatalog) {
  return {
    tracks: catalog.tracksByName().map((track) => track.id),
    albums: catalog.albumsByName().map((album) => album.id),
    artists: catalog.artistsByName().map((artist) => artist.id),
    perAlbum: ['al1', 'al2'].map((id) => [
      catalog.albumTracks(id).map((track) => track.id),
      catalog.albumStats(id),
      catalog.albumArtists(id),
      catalog.albumAddedMs(id),
    ]),
    perArtist: ['ar1', 'ar2'].map((id) => [catalog.artistAlbums(id), catalog.artistStats(id)]),
  };
}

describe('a library catalog made in steps (the library read after the server listens)', () => {
  it('pauses between its parts and answers every read as one made at once', () => {
    const steps = LibraryCatalog.inSteps(index);
    let pauses = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) pauses += 1;
    expect(pauses).toBeGreaterThanOrEqual(4);
    expect(reads(step.value)).toEqual(reads(new LibraryCatalog(index)));
    expect(reads(step.value).tracks).toHaveLength(3);
  });

  it("sorts a collector's library by name a few thousand comparisons a step, never all of it in one", () => {
    const count = 20_000;
    const names = ['Angel', 'angel', 'Ängel', 'Zebra', 'zoo', '10 Years', '9 Lives', 'Ünder'];
    const large = makeLibrary({
      artists: [{ id: 'ar1' }],
      albums: [{ id: 'al1', artistIds: ['ar1'] }],
      tracks: Array.from({ length: count }, (_, i) => ({
        id: `t${(i * 7919) % count}`,
        name: `${names[i % names.length]} ${i % 97}`,
        artistIds: ['ar1'],
      })),
    });
    const steps = LibraryCatalog.inSteps(large);
    let pauses = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) pauses += 1;
    // Each track is compared about log2(count) times: at most a few thousand comparisons a step.
    expect(pauses).toBeGreaterThan((count * Math.log2(count)) / 10_000);
    expect(reads(step.value).tracks).toEqual(reads(new LibraryCatalog(large)).tracks);
    const byName = [...large.tracks].sort(
      (a, b) =>
        new Intl.Collator('en', { sensitivity: 'base', numeric: true }).compare(a.name, b.name) ||
        (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
    expect(step.value.tracksByName().map((track) => track.id)).toEqual(byName.map((track) => track.id));
  });
});
