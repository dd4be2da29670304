import { finish, type Steps } from '../steps.js';

/**
 * Name search over one library snapshot, case- and accent-insensitive: `beyonce` finds `Beyoncé`,
 * `strasse` finds `Straße`. Names are normalised once when the snapshot is indexed; a search is
 * then one pass of `indexOf` over flat strings (100,000 tracks: a few milliseconds).
 */

/** Letters that do not decompose under NFKD but that people type without their marks. */
const FOLDS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
};
const FOLDABLE = new RegExp(`[${Object.keys(FOLDS).join('')}]`, 'g');

/**
 * The searchable form of a name: compatibility-decomposed (NFKD, so `ﬁ` is `fi` and `①` is `1`),
 * without combining marks, lower case, and every run of characters that are not letters or digits
 * made one space, with a space in front, so ` <query>` finds the starts of words.
 */
export function searchKey(text: string): string {
  // Most names are plain ASCII: they need neither decomposition nor folding (half the index's build time).
  const words = (
    /^[\x20-\x7e]*$/.test(text)
      ? text.toLowerCase().replace(/[^a-z0-9]+/g, ' ')
      : text
          .normalize('NFKD')
          .replace(/\p{M}+/gu, '')
          .toLowerCase()
          .replace(FOLDABLE, (letter) => FOLDS[letter]!)
          .replace(/[^\p{L}\p{N}]+/gu, ' ')
  ).trim();
  return words === '' ? '' : ` ${words}`;
}

/** How well a name matches, best first: it starts with the query, a later word does, or a word holds it. */
const STARTS = 0;
const WORD_STARTS = 1;
const INSIDE = 2;

/**
 * One kind of item (tracks, albums or artists), in the catalog's name order. The normalised names
 * are joined into one string (each starts with its space, and `\n` ends it), so a search is a run of
 * `indexOf` calls over it, V8's fastest string scan, instead of one call per name.
 */
export class NameIndex<T> {
  private readonly text: string;
  /** Where each item's name starts in `text`, and one past the last (its length + 1). */
  private readonly starts: Int32Array;

  /** `keys` are the items' searchKeys, in the same order. */
  private constructor(
    private readonly items: readonly T[],
    keys: readonly string[],
  ) {
    this.starts = new Int32Array(keys.length + 1);
    let at = 0;
    keys.forEach((key, i) => {
      this.starts[i] = at;
      at += key.length + 1;
    });
    this.starts[keys.length] = at;
    this.text = keys.join('\n') + '\n';
  }

  /** The index of `items` (in the catalog's name order), made at once. */
  static of<T>(items: readonly T[], nameOf: (item: T) => string): NameIndex<T> {
    return finish(NameIndex.making(items, nameOf));
  }

  /**
   * The index of `items` made in steps: it yields after every `step` names normalised, so a
   * warm-up can let requests run between them.
   */
  static *making<T>(items: readonly T[], nameOf: (item: T) => string, step = 2_000): Steps<NameIndex<T>> {
    const keys = new Array<string>(items.length);
    for (let i = 0; i < items.length; i++) {
      keys[i] = searchKey(nameOf(items[i]!));
      if ((i + 1) % step === 0) yield;
    }
    return new NameIndex(items, keys);
  }

  /**
   * At most `count` items whose name contains the query: names starting with it first, then names
   * with a word starting with it, then the rest; each group in name order. An empty query (only
   * marks or punctuation) matches nothing.
   */
  search(query: string, count: number): T[] {
    const key = searchKey(query);
    if (key === '') return [];
    const inner = key.slice(1);
    const { text, starts } = this;
    const groups: [T[], T[], T[]] = [[], [], []];
    let item = 0;
    let at = text.indexOf(inner);
    while (at >= 0) {
      // The item holding this match: matches come in text order, so the cursor only moves forward.
      while (starts[item + 1]! <= at) item += 1;
      const end = starts[item + 1]! - 1;
      const rank =
        at === starts[item]! + 1
          ? STARTS
          : text[at - 1] === ' ' || text.substring(at, end).includes(key)
            ? WORD_STARTS
            : INSIDE;
      const group = groups[rank];
      if (group.length < count) group.push(this.items[item]!);
      // Nothing can outrank a full group of names that start with the query.
      if (rank === STARTS && group.length >= count) break;
      at = text.indexOf(inner, end + 1);
    }
    return [...groups[0], ...groups[1], ...groups[2]].slice(0, count);
  }
}
