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

  /** `keysOf(i)`: the keys of the library's track i (repeats allowed; each pair is kept once). */
  constructor(count: number, keysOf: (i: number) => Iterable<string>) {
    const placeBits = Math.max(1, Math.ceil(Math.log2(count + 1)));
    // Floats are exact to 53 bits: a huge library trades hash bits for its places.
    this.hashBits = Math.min(32, 53 - placeBits);
    this.scale = 2 ** placeBits;
    const entries: number[] = [];
    for (let i = 0; i < count; i++)
      for (const key of new Set(keysOf(i))) entries.push(this.hash(key) * this.scale + i);
    this.entries = Float64Array.from(entries).sort();
  }

  /** The places of the tracks that may have `key`, in library order. */
  candidates(key: string): number[] {
    const low = this.hash(key) * this.scale;
    const high = low + this.scale;
    let at = lowerBound(this.entries, low);
    const found: number[] = [];
    for (; at < this.entries.length && this.entries[at]! < high; at++) found.push(this.entries[at]! - low);
    return found;
  }

  /** The key's hash, cut to the bits this table keeps. */
  private hash(key: string): number {
    return keyHash(key) % 2 ** this.hashBits;
  }
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
