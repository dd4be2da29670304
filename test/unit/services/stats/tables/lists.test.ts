import { describe, expect, it } from 'vitest';
import { FloatColumn, IntColumn, Lists } from '../../../../../server/services/stats/tables/lists.js';

describe('numbers per snapshot in typed arrays', () => {
  it('keeps every list whole as they grow past their first room, each artist or genre once', () => {
    const lists = new Lists();
    const expected: number[][] = [];
    for (let s = 0; s < 500; s += 1) {
      const list: number[] = [];
      for (const v of [s % 7, s % 3, s % 7, s]) if (lists.addOnce(v)) list.push(v);
      lists.close();
      expected.push(list);
    }
    expect(lists.count).toBe(500);
    expect(lists.size).toBe(expected.flat().length);
    expect(Array.from({ length: 500 }, (_, s) => lists.of(s))).toEqual(expected);
    const other = new Lists();
    for (const list of expected) other.push(list);
    expect(lists.same(321, other, 321)).toBe(true);
    expect(lists.same(321, other, 322)).toBe(false);
  });

  it("takes a saved block's lists at once, as pushed one by one", () => {
    const one = new Lists();
    const all = new Lists();
    one.push([9]);
    all.push([9]);
    const lists = [[1, 2], [], [3], [4, 5, 6]];
    for (const list of lists) one.push(list);
    all.pushAll(
      Uint32Array.from(lists, (l) => l.length),
      Int32Array.from(lists.flat()),
    );
    expect(all.count).toBe(5);
    expect(Array.from({ length: 5 }, (_, s) => all.of(s))).toEqual([[9], ...lists]);
    expect(all.same(4, one, 4)).toBe(true);
    // Counts that do not add up to the values, or a list left open, are refused.
    expect(() => all.pushAll(Uint32Array.of(2), Int32Array.of(1))).toThrow();
    expect([all.count, all.size]).toEqual([5, 7]);
    all.add(7);
    expect(() => all.pushAll(Uint32Array.of(1), Int32Array.of(1))).toThrow(/open/);
  });

  it('gives back each number pushed, past the room it started with', () => {
    const ints = new IntColumn();
    const floats = new FloatColumn();
    for (let i = 0; i < 1000; i += 1) {
      ints.push(i - 500);
      floats.push(i + 0.5);
    }
    expect(ints.length).toBe(1000);
    expect(Array.from(ints.data.subarray(0, 1000))).toEqual(Array.from({ length: 1000 }, (_, i) => i - 500));
    expect(floats.data[999]).toBe(999.5);
  });

  it("keeps a collector's hundreds of thousands of snapshots in arrays little larger than they are", () => {
    const lists = new Lists();
    const tracks = new IntColumn();
    const count = 150_000;
    for (let s = 0; s < count; s += 1) {
      lists.push([s % 8000, (s * 7) % 8000]);
      tracks.push(s);
    }
    // Grown by doubling, 150,000 snapshots would sit in room for 262,144.
    expect(lists.start.length).toBeLessThanOrEqual(Math.ceil((count + 1) * 1.13));
    expect(lists.values.length).toBeLessThanOrEqual(Math.ceil(lists.size * 1.13));
    expect(tracks.data.length).toBeLessThanOrEqual(Math.ceil(count * 1.13));
    expect(lists.of(count - 1)).toEqual([(count - 1) % 8000, ((count - 1) * 7) % 8000]);
    expect(tracks.data[count - 1]).toBe(count - 1);
  });
});
