import { describe, expect, it } from 'vitest';
import { IdTable } from '../../../server/store/id-table.js';

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
});
