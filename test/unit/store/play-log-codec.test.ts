import { describe, expect, it } from 'vitest';
import type { PlayLogEntry } from '../../../server/domain/play.js';
import { decodeV1Line, encodeV1Line } from '../../../server/store/play-log-codec.js';

const entry: PlayLogEntry = {
  id: 'log1',
  userId: 'u1',
  trackId: 't1',
  albumId: null,
  artistIds: ['ar1'],
  genres: ['Rock'],
  durationMs: 1000,
  device: 'Phone',
  type: 'skip',
  at: 1_700_000_000_000,
  explicitAt: true,
  trackName: 'Track',
  albumName: null,
  artistNames: ['Artist'],
};

describe('play log lines', () => {
  it('writes an entry as one compact line, fields in a fixed order, and reads it back', () => {
    const shuffled = Object.fromEntries(Object.entries(entry).reverse()) as unknown as PlayLogEntry;
    const line = encodeV1Line(shuffled);
    expect(line.endsWith('}\n')).toBe(true);
    expect(line.indexOf('\n')).toBe(line.length - 1);
    expect(Object.keys(JSON.parse(line) as object)).toEqual(Object.keys(entry));
    expect(decodeV1Line(line.slice(0, -1))).toEqual(entry);
  });

  it('writes and reads no stray properties', () => {
    const line = encodeV1Line({ ...entry, extra: 1 } as PlayLogEntry);
    expect(line).not.toContain('extra');
    expect(Object.keys(decodeV1Line(line.replace('{', '{"stray":true,'))!)).toEqual(Object.keys(entry));
  });

  it('reads the fields an older line may lack, or holds in another form, as their defaults', () => {
    const older: Record<string, unknown> = { ...entry, trackName: 7, artistNames: [1] };
    delete older.explicitAt;
    delete older.albumName;
    expect(decodeV1Line(JSON.stringify(older))).toEqual({
      ...entry,
      explicitAt: false,
      trackName: null,
      albumName: null,
      artistNames: [],
    });
  });

  it('reads a line of another shape, or not JSON, as no entry', () => {
    expect(decodeV1Line('')).toBeUndefined();
    expect(decodeV1Line('{"id":')).toBeUndefined();
    expect(decodeV1Line('null')).toBeUndefined();
    expect(decodeV1Line(JSON.stringify({ ...entry, type: 'pause' }))).toBeUndefined();
    expect(decodeV1Line(JSON.stringify({ ...entry, at: null }))).toBeUndefined();
    expect(decodeV1Line(JSON.stringify({ ...entry, genres: 'Rock' }))).toBeUndefined();
  });
});
