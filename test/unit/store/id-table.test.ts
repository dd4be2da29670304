import { describe, expect, it } from 'vitest';
import { plainTrack, type TrackRecord } from '../../../server/domain/library.js';
import { IdTable } from '../../../server/store/id-table.js';
import { textHash } from '../../../server/store/text-hash.js';
import { TrackColumns } from '../../../server/store/track-columns.js';

const record = (id: string, name = id) => ({ id, name });

describe('IdTable', () => {
  it('finds every record by its id, and nothing for an id it lacks, in a crowded table', () => {
    const records = Array.from({ length: 1000 }, (_, i) => record(`t${(i * 7919) % 100_003}`));
    const table = IdTable.of(records);
    for (const item of records) expect(table.get(item.id)).toBe(item);
    for (let i = 0; i < 1000; i++) expect(table.get(`x${i}`)).toBeUndefined();
    expect(table.get('')).toBeUndefined();
    expect(IdTable.of([]).get('a')).toBeUndefined();
  });

  it('finds the later of two records with one id, as a Map would', () => {
    const first = record('x', 'first');
    const later = record('x', 'later');
    const table = IdTable.of([record('a'), first, record('y'), later]);
    expect(table.get('x')).toBe(later);
    expect(table.get('x')).toBe(new Map([first, later].map((r) => [r.id, r])).get('x'));
  });

  it('finds an edited record in a list with the same ids in the same places', () => {
    const records = [record('a'), record('b'), record('c')];
    const table = IdTable.of(records);
    const edited = [records[0]!, record('b', 'edited'), records[2]!];
    const over = table.over(edited);
    expect(over.get('b')).toBe(edited[1]);
    expect(table.get('b')).toBe(records[1]);
    expect(over.get('c')).toBe(records[2]);
  });

  it('finds tracks held in columns by id, without making the ids of the tracks it passes', () => {
    const columns = new TrackColumns();
    const track = (id: string): TrackRecord => ({
      id,
      path: `/music/${id}.mp3`,
      size: 1,
      mtimeMs: 1,
      name: id,
      albumId: null,
      artistIds: [],
      genres: [],
      durationMs: 1,
      trackNumber: null,
      discNumber: null,
      year: null,
      format: 'mp3',
      artwork: [],
    });
    const rows = Array.from({ length: 3000 }, (_, i) => columns.add(track(`t${(i * 7919) % 100_003}`)));
    rows.push(columns.add(track('t0')));
    const made: string[] = [];
    const watched: TrackRecord[] = rows.map((row) => ({
      ...plainTrack(row),
      get id() {
        made.push(row.id);
        return row.id;
      },
      hasId: (id: string) => row.hasId(id),
      idHash: () => row.idHash(),
    }));
    const table = IdTable.of(watched);
    // Only the id found twice is made: the later 't0' meets the earlier one.
    expect(made).toEqual(['t0']);
    for (const [at, row] of rows.entries()) if (at > 0) expect(table.get(row.id)).toBe(watched[at]);
    expect(table.get('t0')).toBe(watched.at(-1));
    expect(table.get('t3')).toBeUndefined();
    const wide = new TrackColumns();
    const names = ['Björk', 'Sigur Rós', 'ascii'].map((id) => wide.add(track(id)));
    expect(names.map((row) => row.idHash())).toEqual(names.map((row) => textHash(row.id)));
    expect(IdTable.of(names).get('Sigur Rós')).toBe(names[1]);
  });
});
