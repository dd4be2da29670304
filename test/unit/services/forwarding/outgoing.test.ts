import { describe, expect, it } from 'vitest';
import type { TrackRecord } from '../../../../server/domain/library.js';
import type { PlayLogEntry } from '../../../../server/domain/play.js';
import { outgoingOfEntry, outgoingOfTrack } from '../../../../server/services/forwarding/outgoing.js';

const track: TrackRecord = {
  id: 'boxer',
  path: '/music/boxer.flac',
  size: 1,
  mtimeMs: 0,
  name: 'The Boxer',
  albumId: 'bridge',
  artist: 'Simon & Garfunkel',
  artistIds: ['paul', 'art'],
  genres: [],
  durationMs: 300_000,
  trackNumber: 1,
  discNumber: null,
  year: null,
  format: 'flac',
  artwork: [],
};

const entry: PlayLogEntry = {
  id: 'log',
  userId: 'u1',
  trackId: 'boxer',
  albumId: 'bridge',
  artistIds: ['paul', 'art'],
  genres: [],
  durationMs: 300_000,
  device: null,
  type: 'play',
  at: 1_700_000_000_000,
  explicitAt: true,
  trackName: 'The Boxer',
  albumName: 'Bridge over Troubled Water',
  artistNames: ['Paul Simon', 'Art Garfunkel'],
};

const names = {
  artistName: (id: string) => (id === 'paul' ? 'Paul Simon' : null),
  albumName: () => 'Bridge',
};

describe('plays going out', () => {
  it('name the artist as the file credits it while the library has the track', () => {
    expect(outgoingOfEntry(entry, track).artist).toBe('Simon & Garfunkel');
    expect(outgoingOfTrack(names, track, null, 0).artist).toBe('Simon & Garfunkel');
  });

  it('name the first artist logged for a track gone from the library, or not yet scanned anew', () => {
    expect(outgoingOfEntry(entry, undefined).artist).toBe('Paul Simon');
    const older = { ...track };
    delete older.artist;
    expect(outgoingOfTrack(names, older, null, 0).artist).toBe('Paul Simon');
  });
});
