import { sortInSteps } from '../stats/sums/sort-in-steps.js';
import { ITEMS_PER_LOOK, finish, timeIsUp, type Steps } from '../steps.js';

/** A table's numbers, made in steps by `keyTable`. */
export interface KeyTable {
  entries: Float64Array;
  scale: number;
  hashBits: number;
}

/**
 * Keys of a library's tracks kept as numbers: each (key, track) pair is one float, the key's 32-bit
 * hash above the track's place in the library, and the floats sorted. A lookup hashes the key and
 * finds its run by binary search. No key string is kept: a collector's library has several keys a
 * track (credits, artists, titles), and a Map of them held more than the tracks themselves. Two keys
 * may share a hash, so a lookup gives candidates, and the caller checks each one's key.
 */
export class HashedKeys {
  private readonly entries: Float64Array;
  /** 2 ** (bits of a track's place). */
  private readonly scale: number;
  private readonly hashBits: number;

  /** Made in steps, so requests run between them: a collector's keys take seconds to make. */
  static *inSteps(count: number, keysOf: (i: number) => Iterable<string>): Steps<HashedKeys> {
    return new HashedKeys(yield* keyTable(count, keysOf));
  }

  /** `keysOf(i)`: the keys of the library's track i (repeats allowed; each pair is kept once). */
  constructor(count: number, keysOf: (i: number) => Iterable<string>);
  constructor(table: KeyTable);
  constructor(countOrTable: number | KeyTable, keysOf?: (i: number) => Iterable<string>) {
    const table =
      typeof countOrTable === 'number' ? finish(keyTable(countOrTable, keysOf ?? (() => []))) : countOrTable;
    this.entries = table.entries;
    this.scale = table.scale;
    this.hashBits = table.hashBits;
  }

  /** The places of the tracks that may have `key`, in library order. */
  candidates(key: string): number[] {
    const low = cut(keyHash(key), this.hashBits) * this.scale;
    const high = low + this.scale;
    let at = lowerBound(this.entries, low);
    const found: number[] = [];
    for (; at < this.entries.length && this.entries[at]! < high; at++) found.push(this.entries[at]! - low);
    return found;
  }
}

/** Tracks whose keys are worked out between two steps, whatever the time left. */
const TRACKS_PER_STEP = 2048;
/** Comparisons of the sort of the keys between two steps. */
const COMPARISONS_PER_STEP = 65_536;

function* keyTable(count: number, keysOf: (i: number) => Iterable<string>): Steps<KeyTable> {
  const placeBits = Math.max(1, Math.ceil(Math.log2(count + 1)));
  // Floats are exact to 53 bits: a huge library trades hash bits for its places.
  const hashBits = Math.min(32, 53 - placeBits);
  const scale = 2 ** placeBits;
  // Floats from the first: a list of numbers turned into floats at the end took one long turn.
  let keys = new Float64Array(Math.max(16, count * 2));
  let length = 0;
  for (let i = 0; i < count; i++) {
    for (const key of new Set(keysOf(i))) {
      if (length === keys.length) keys = grown(keys);
      keys[length++] = cut(keyHash(key), hashBits) * scale + i;
    }
    if ((i + 1) % ITEMS_PER_LOOK === 0 && ((i + 1) % TRACKS_PER_STEP === 0 || timeIsUp())) yield;
  }
  yield;
  const entries = keys.slice(0, length);
  yield* sortInSteps(entries, (a, b) => a - b, COMPARISONS_PER_STEP);
  return { entries, scale, hashBits };
}

function grown(keys: Float64Array<ArrayBuffer>): Float64Array<ArrayBuffer> {
  const bigger = new Float64Array(keys.length * 2);
  bigger.set(keys);
  return bigger;
}

/** A key's hash, cut to the bits a table keeps. */
function cut(hash: number, bits: number): number {
  return hash % 2 ** bits;
}

/** FNV-1a (32 bits) over the key's UTF-16 units. */
export function keyHash(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

function lowerBound(sorted: Float64Array, value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid]! < value) low = mid + 1;
    else high = mid;
  }
  return low;
}
