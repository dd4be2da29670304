import { describe, expect, it, vi } from 'vitest';
import type { Listen } from '../../../../server/domain/listen.js';
import { HistoryService } from '../../../../server/services/history/history-service.js';
import { makeLibrary } from '../../../factories/library.js';
import { newTestService } from '../../../fakes/test-service.js';

const library = makeLibrary({
  artists: [{ id: 'a1', name: 'Nina Simone' }],
  albums: [{ id: 'al1', name: 'Pastel Blues', artistIds: ['a1'] }],
  tracks: [{ id: 't1', name: 'Sinnerman', albumId: 'al1', artistIds: ['a1'] }],
});

const listen = (title: string): Listen => ({
  userId: 'u1',
  at: Date.UTC(2024, 0, 1),
  artist: 'Nina Simone',
  title,
  album: 'Pastel Blues',
  recordingMbid: null,
  device: null,
  type: 'play',
  source: 'listenbrainz',
});

describe('matching unmatched listens again after a scan', () => {
  it('leaves the library alone when no listen waits for a match', async () => {
    const { sut, fakes } = newTestService(HistoryService, { library });
    const read = vi.spyOn(fakes.library, 'index');
    expect(await sut.rematch()).toEqual({ matched: 0, kept: 0 });
    expect(read).not.toHaveBeenCalled();
  });

  it('turns the listens that match a track now into plays and keeps the others', async () => {
    const { sut, fakes } = newTestService(HistoryService, { library });
    await fakes.unmatchedListens.append([listen('Sinnerman'), listen('Not in the library')]);
    expect(await sut.rematch()).toEqual({ matched: 1, kept: 1 });
    expect(fakes.unmatchedListens.listens.map((l) => l.title)).toEqual(['Not in the library']);
  });
});
