/**
 * Short strings numbered by their bytes, so a log line's user id or device name is found without
 * making a string: a few hundred bytes of JavaScript per line are cheaper than the native call a
 * `Buffer.toString` costs, millions of times over at a start. A string is made once, when its bytes
 * are first seen. Different bytes may decode to the same string (invalid UTF-8 becomes U+FFFD):
 * they get different numbers here, and whoever interns `values` by string joins them again.
 */
/** A UTF-16 surrogate without its other half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export class ByteInterner {
  /** The strings, by number. */
  readonly values: string[] = [];
  /** Open addressing: slot → number + 1 (0: empty); the table is kept at most half full. */
  private slots = new Int32Array(64);
  private hashes: number[] = [];
  /** Bytes of string k: pool[starts[k], starts[k + 1]). */
  private starts: number[] = [0];
  private pool = Buffer.allocUnsafe(1024);
  private used = 0;
  /** Strings with no UTF-8 bytes of their own (see `keyOf`), by text; never in `slots`. */
  private readonly unpaired = new Map<string, number>();

  get count(): number {
    return this.values.length;
  }

  /**
   * The number of `buf[start, end)` (valid UTF-8 or not), whose `hashOf` is `hash`; made on first
   * sight, its string decoded then.
   */
  key(buf: Uint8Array, start: number, end: number, hash: number): number {
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const found = this.slots[slot]! - 1;
      if (found < 0) return this.add(buf, start, end, hash, slot);
      if (this.hashes[found] === hash && this.holds(found, buf, start, end)) return found;
    }
  }

  /** The number of a string (its UTF-8 bytes), for lines read the slow way. */
  keyOf(value: string): number {
    // A lone surrogate (a name cut in the middle of an emoji, written escaped in the log) has no
    // UTF-8 bytes: encoding it would make it U+FFFD and merge it with another name. Numbered by text.
    if (LONE_SURROGATE.test(value)) return this.unpairedKey(value);
    const bytes = Buffer.from(value, 'utf8');
    return this.key(bytes, 0, bytes.length, hashBytes(bytes, 0, bytes.length));
  }

  private unpairedKey(value: string): number {
    let k = this.unpaired.get(value);
    if (k === undefined) {
      k = this.values.length;
      this.unpaired.set(value, k);
      this.values.push(value);
      this.starts.push(this.used);
      this.hashes.push(0);
    }
    return k;
  }

  private holds(k: number, buf: Uint8Array, start: number, end: number): boolean {
    const from = this.starts[k]!;
    const length = this.starts[k + 1]! - from;
    if (length !== end - start) return false;
    const pool = this.pool;
    for (let i = 0; i < length; i += 1) if (pool[from + i] !== buf[start + i]) return false;
    return true;
  }

  private add(buf: Uint8Array, start: number, end: number, hash: number, slot: number): number {
    const k = this.values.length;
    const length = end - start;
    if (this.used + length > this.pool.length) {
      const bigger = Buffer.allocUnsafe(Math.max(this.pool.length * 2, this.used + length));
      this.pool.copy(bigger, 0, 0, this.used);
      this.pool = bigger;
    }
    this.pool.set(buf.subarray(start, end), this.used);
    this.used += length;
    this.starts.push(this.used);
    this.hashes.push(hash);
    this.values.push(this.pool.toString('utf8', this.used - length, this.used));
    this.slots[slot] = k + 1;
    if ((k + 1) * 2 > this.slots.length) this.rehash();
    return k;
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let k = 0; k < this.values.length; k += 1) {
      if (this.unpaired.get(this.values[k]!) === k) continue;
      let slot = this.hashes[k]! & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = k + 1;
    }
    this.slots = slots;
  }
}

/** FNV-1a over `buf[start, end)`: the hash `ByteInterner.key` takes, made while a string is scanned. */
export function hashBytes(buf: Uint8Array, start: number, end: number): number {
  let hash = FNV_OFFSET;
  for (let i = start; i < end; i += 1) hash = Math.imul(hash ^ buf[i]!, FNV_PRIME);
  return hash >>> 0;
}

/** As a 32-bit signed integer, the form the hash has while it is made. */
export const FNV_OFFSET = 0x811c9dc5 | 0;
export const FNV_PRIME = 0x01000193;
