import { describe, expect, it } from 'vitest';
import { snapshotText } from '../../../server/store/play-log-codec.js';
import { SnapshotTexts } from '../../../server/store/snapshot-texts.js';

const text = (i: number) =>
  snapshotText({
    trackId: `track ${i % 50}`,
    albumId: i % 3 ? `album ${i % 7}` : null,
    artistIds: [`artist ${i % 11}`],
    genres: i % 2 ? ['Rock'] : [],
    durationMs: 1000 + i,
    trackName: `Tïtle ${i} ♪`,
    albumName: null,
    artistNames: [`Artist ${i % 11}`],
  });
const texts = Array.from({ length: 300 }, (_, i) => text(i));
const saved = (list: readonly string[]) => Buffer.from(list.map((t) => `${t}\n`).join(''));

describe('snapshot texts held as bytes', () => {
  it('gives back every text a saved index holds, and saves the very bytes it was given', () => {
    const held = SnapshotTexts.fromBytes(saved(texts), texts.length);
    expect(held.count).toBe(300);
    expect(held.slice(0)).toEqual(texts);
    expect(held.bytes(0, 300).equals(saved(texts))).toBe(true);
    expect(held.bytes(120, 180).equals(saved(texts.slice(120, 180)))).toBe(true);
    expect(held.bytes(5, 5).length).toBe(0);
  });

  it('saves the same bytes whether its texts came from a file or were added one by one', () => {
    const fromFile = SnapshotTexts.fromBytes(saved(texts.slice(0, 100)), 100);
    const added = SnapshotTexts.empty();
    for (const t of texts.slice(0, 100)) added.push(t);
    for (const t of texts.slice(100)) {
      fromFile.push(t);
      added.push(t);
    }
    expect(fromFile.bytes(0, 300).equals(added.bytes(0, 300))).toBe(true);
    expect(SnapshotTexts.fromTexts(texts).bytes(0, 300).equals(saved(texts))).toBe(true);
  });

  it('finds a text by its number, including texts added after a load and none it does not hold', () => {
    const held = SnapshotTexts.fromBytes(saved(texts.slice(0, 200)), 200);
    expect(held.indexOf(texts[0]!)).toBe(0);
    expect(held.indexOf(texts[199]!)).toBe(199);
    for (const t of texts.slice(200)) held.push(t);
    for (const [n, t] of texts.entries()) expect(held.indexOf(t)).toBe(n);
    expect(held.indexOf(text(1000))).toBe(-1);
    // Same start, same end, same length: only the middle differs.
    expect(held.indexOf(texts[7]!.replace('Tïtle 7', 'Tïtle 8'))).toBe(-1);
  });

  it('forgets texts cut off, and numbers the next ones after what is left', () => {
    const held = SnapshotTexts.fromBytes(saved(texts.slice(0, 10)), 10);
    held.truncate(6);
    expect(held.count).toBe(6);
    expect(held.indexOf(texts[8]!)).toBe(-1);
    held.push(texts[9]!);
    expect(held.text(6)).toBe(texts[9]);
    expect(held.indexOf(texts[9]!)).toBe(6);
    expect(held.bytes(0, 7).equals(saved([...texts.slice(0, 6), texts[9]!]))).toBe(true);
  });

  it('gives texts that do not read, never an error, for bytes of another shape', () => {
    const tooFew = SnapshotTexts.fromBytes(saved(texts.slice(0, 2)), 4);
    expect(tooFew.slice(0)).toEqual([texts[0], texts[1], '', '']);
    const tooMany = SnapshotTexts.fromBytes(saved(texts.slice(0, 3)), 2);
    expect(tooMany.text(0)).toBe(texts[0]);
    expect(tooMany.text(1)).toBe(`${texts[1]}\n${texts[2]}`);
    const unended = SnapshotTexts.fromBytes(Buffer.from(`${texts[0]}\n${texts[1]}`), 2);
    expect(unended.slice(0)).toEqual(texts.slice(0, 2));
    unended.push(texts[2]!);
    expect(unended.slice(0)).toEqual(texts.slice(0, 3));
    expect(SnapshotTexts.fromTexts(['{"a":\n1}']).text(0)).toBe('');
  });

  it('lets go of the bytes of saved texts, and still finds each by the texts made again', () => {
    const held = SnapshotTexts.fromBytes(saved(texts.slice(0, 200)), 200);
    const made: number[] = [];
    held.forget(150, (n) => {
      made.push(n);
      return n === 3 ? undefined : texts[n];
    });
    expect(held.text(10)).toBe(texts[10]);
    expect(held.text(3)).toBe('');
    expect(held.slice(148, 152)).toEqual(texts.slice(148, 152));
    expect(held.bytes(150, 200).equals(saved(texts.slice(150, 200)))).toBe(true);
    expect(() => held.bytes(149, 200)).toThrow();
    made.length = 0;
    expect(held.indexOf(texts[42]!)).toBe(42);
    // Only texts of the same hash are made again to be compared.
    expect(made).toEqual([42]);
    expect(held.indexOf(texts[3]!)).toBe(-1);
    // Past the room its lookup started with, which is made again from the hashes kept.
    for (const t of texts.slice(200)) held.push(t);
    for (let i = 300; i < 700; i += 1) held.push(text(i));
    expect(held.indexOf(texts[42]!)).toBe(42);
    expect(held.indexOf(texts[250]!)).toBe(250);
    expect(held.indexOf(text(650))).toBe(650);
    expect(
      held
        .bytes(150, 700)
        .equals(saved([...texts.slice(150), ...Array.from({ length: 400 }, (_, i) => text(i + 300))])),
    ).toBe(true);
  });
});
