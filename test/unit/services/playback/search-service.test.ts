import { describe, expect, it } from 'vitest';
import { SearchService } from '../../../../server/services/playback/search-service.js';
import { album, artist, fakeScanner, libraryOf, track } from '../../../factories/library.js';
import { newTestService } from '../../../fakes/test-service.js';

const library = (title: string) =>
  libraryOf([artist('ar1', 'Aurora Lane', [album('al1', 'First Light', [track('t1', title)])])]);
const everything = {
  tracks: { count: 10, offset: 0 },
  albums: { count: 10, offset: 0 },
  artists: { count: 10, offset: 0 },
};
const titles = (found: { tracks: Array<{ name: string }> }) => found.tracks.map((item) => item.name);

describe('SearchService', () => {
  it('finds the same after a warm-up as without one', async () => {
    const { sut } = newTestService(SearchService, { library: library('Dawn Chorus') });
    await sut.warm();
    expect(titles(sut.find('chorus', everything))).toEqual(['Dawn Chorus']);
    expect(sut.find('aurora', everything).artists.map((item) => item.id)).toEqual(['ar1']);
  });

  it('finds what a rescan brought, whether a warm-up was under way, done or never started', async () => {
    const scanner = fakeScanner(library('Dawn Chorus'));
    const { sut, services } = newTestService(SearchService, { library: library('Dawn Chorus'), scanner });
    const warming = sut.warm();
    scanner.set(library('Evening Song'));
    services.library.startScan();
    await services.library.waitForIdle();
    await warming;
    expect(titles(sut.find('song', everything))).toEqual(['Evening Song']);
    expect(titles(sut.find('chorus', everything))).toEqual([]);
  });

  it('answers a search during a warm-up at once, with the whole library', () => {
    const { sut } = newTestService(SearchService, { library: library('Dawn Chorus') });
    void sut.warm();
    expect(titles(sut.find('dawn', everything))).toEqual(['Dawn Chorus']);
  });
});
