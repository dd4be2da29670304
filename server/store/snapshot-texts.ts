import { crc32 } from 'node:zlib';
import { FNV_OFFSET, FNV_PRIME } from './byte-interner.js';
/**
 * A play log's snapshot texts, by number, held as their UTF-8 bytes: each text and a newline, one
 * after the other in one buffer, as the saved index keeps them on disk (saved-play-index.ts). A
 * collector's log defines hundreds of thousands of snapshots: as strings they would be that many
 * heap objects for the collector to trace, and the map that finds one by its text as many more.
 * Here a text is made into a string only when it is asked for, and a text is found by its bytes'
 * hash in a table of integers.
 */

const NEWLINE = 0x0a;
/** Bytes a text is hashed by at its start and its end: the track id opens it, names close it. */
const HASHED_HEAD = 64;
const HASHED_TAIL = 32;
/** Bytes copied, and texts' bytes scanned, a step of `prepareInSteps`: well under a millisecond. */
const PREPARED_PER_STEP = 1 << 18;

/** The texts of snapshots [0, count), as whoever loads a saved index checks them. */
export interface SnapshotTextList {
  readonly count: number;
  text(n: number): string;
  /** Texts [from, to). */
  slice(from: number, to: number): string[];
  /** Makes ready to read every text, pausing between steps (optional). */
  prepareInSteps?(): Generator<void, void>;
  /** Whether the bytes given are those saved (their CRC-32s, where known), in steps. */
  checkInSteps?(): Generator<void, boolean>;
}

export class SnapshotTexts implements SnapshotTextList {
  private pool: Buffer;
  /** Bytes of the pool in use. */
  private used: number;
  private counted: number;
  /**
   * Where each text's newline is, by number; made at the first use for texts given as one region,
   * since a start reads none of them before it listens.
   */
  private ends: Uint32Array | undefined;
  /** Open addressing: slot → number + 1 (0: empty), at most half full; made at the first `indexOf`. */
  private slots: Int32Array | undefined;

  /** Bytes given by `fromBytes`, not yet copied into the pool, and their CRC-32s where known. */
  private given: Uint8Array[] | undefined;
  private givenCrcs: (number | undefined)[] = [];
  /** Whether the bytes given differed from their CRC-32s, found as they were copied. */
  private damaged = false;
  /** Where the pool starts among the texts' bytes (`ends` counts from the first text). */
  private base = 0;
  /** Texts before this number are let go (`forget`): `forgotten` gives them. */
  private firstHeld = 0;
  private forgotten: (n: number) => string | undefined = () => undefined;
  /** Each text's hash, for texts [0, hashed). */
  private hashes = new Uint32Array(0);
  private hashed = 0;

  private constructor(pool: Buffer, used: number, count: number, ends: Uint32Array | undefined) {
    this.pool = pool;
    this.used = used;
    this.counted = count;
    this.ends = ends;
  }

  static empty(): SnapshotTexts {
    return new SnapshotTexts(Buffer.allocUnsafe(1024), 0, 0, new Uint32Array(16));
  }

  /**
   * `count` texts from their bytes as a saved index holds them (each followed by a newline), in
   * parts one after the other. The parts are copied at the first use, not before: a start reads
   * none before it listens. Bytes of another shape give texts that do not read, never an error:
   * whoever gave them checks every text (after the server listens).
   */
  static fromBytes(
    parts: Uint8Array | Uint8Array[],
    count: number,
    crcs: (number | undefined)[] = [],
  ): SnapshotTexts {
    if (count === 0) return SnapshotTexts.empty();
    const out = new SnapshotTexts(Buffer.alloc(0), 0, count, undefined);
    out.given = Array.isArray(parts) ? parts : [parts];
    out.givenCrcs = crcs;
    return out;
  }

  /**
   * Whether the bytes `fromBytes` was given match their CRC-32s, in steps: a checksum over them is
   * far cheaper than reading every text, and tells a damaged saved index as well. They are copied
   * out of the file meanwhile, so the file is let go with the load; finding each text is left for
   * `prepareInSteps`.
   */
  *checkInSteps(): Generator<void, boolean> {
    yield* this.copying(PREPARED_PER_STEP);
    return !this.damaged;
  }

  /**
   * Lets go of the bytes of texts [0, upTo) (those a saved index holds already, never written
   * again), for `textOf` to give them when asked: whoever holds the same snapshots can make their
   * texts again. A text it makes otherwise is only not found by `indexOf`.
   */
  forget(upTo: number, textOf: (n: number) => string | undefined): void {
    const count = Math.min(upTo, this.counted);
    if (count <= this.firstHeld) return;
    const ends = this.endsMade();
    // Every text's hash is taken while its bytes are here.
    this.slotsMade();
    const from = this.startOf(count, ends);
    const pool = Buffer.allocUnsafe(Math.max(1024, this.used - from));
    this.pool.copy(pool, 0, from - this.base, this.used - this.base);
    this.pool = pool;
    this.base = from;
    this.firstHeld = count;
    this.forgotten = textOf;
  }

  /** Texts given as strings; one holding a newline (no canonical text does) is kept as one that does not read. */
  static fromTexts(texts: readonly string[]): SnapshotTexts {
    const out = SnapshotTexts.empty();
    for (const text of texts) out.push(text.includes('\n') ? '' : text);
    return out;
  }

  get count(): number {
    return this.counted;
  }

  /** Text `n` (n < count). */
  text(n: number): string {
    if (n < this.firstHeld) return this.forgotten(n) ?? '';
    const ends = this.endsMade();
    return this.pool.toString('utf8', this.startOf(n, ends) - this.base, ends[n]! - this.base);
  }

  /** Texts [from, to) as they are saved: each followed by a newline (not copied). */
  bytes(from: number, to: number): Buffer {
    if (from >= to) return Buffer.alloc(0);
    if (from < this.firstHeld) throw new Error('snapshot texts let go of are saved already');
    const ends = this.endsMade();
    return this.pool.subarray(this.startOf(from, ends) - this.base, ends[to - 1]! + 1 - this.base);
  }

  /** Texts [from, to) as strings, made in one piece: a string each is a native call each. */
  slice(from: number, to = this.count): string[] {
    if (from >= to) return [];
    const ends = this.endsMade();
    const texts =
      from < this.firstHeld
        ? []
        : this.pool
            .toString('utf8', this.startOf(from, ends) - this.base, ends[to - 1]! - this.base)
            .split('\n');
    if (texts.length === to - from) return texts;
    // Bytes of another shape (see `endsMade`): text by text.
    texts.length = 0;
    for (let n = from; n < to; n += 1) texts.push(this.text(n));
    return texts;
  }

  /** The number of `text`; -1 when it is none of these. */
  indexOf(text: string): number {
    const ends = this.endsMade();
    const slots = this.slotsMade();
    const bytes = Buffer.from(text);
    const hash = hashOf(bytes, 0, bytes.length);
    const mask = slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const n = slots[slot]! - 1;
      if (n < 0) return -1;
      if (this.hashes[n] !== hash) continue;
      if (n < this.firstHeld) {
        if (this.forgotten(n) === text) return n;
        continue;
      }
      const start = this.startOf(n, ends);
      if (
        ends[n]! - start === bytes.length &&
        this.pool.compare(bytes, 0, bytes.length, start - this.base, ends[n]! - this.base) === 0
      )
        return n;
    }
  }

  /** Adds `text` (canonical: no newline in it) as number `count`. */
  push(text: string): void {
    const ends = this.endsMade();
    const length = Buffer.byteLength(text);
    const at = this.used - this.base;
    if (at + length + 1 > this.pool.length) {
      const next = Buffer.allocUnsafe(Math.max(this.pool.length * 2, at + length + 1));
      this.pool.copy(next, 0, 0, at);
      this.pool = next;
    }
    this.pool.write(text, at, 'utf8');
    this.used += length;
    this.pool[at + length] = NEWLINE;
    if (this.counted >= ends.length) {
      const next = new Uint32Array(ends.length * 2);
      next.set(ends);
      this.ends = next;
    }
    this.ends![this.counted] = this.used;
    this.used += 1;
    this.counted += 1;
    if (this.slots) this.place(this.slots, this.counted - 1);
  }

  /** Forgets the texts from number `count` on. */
  truncate(count: number): void {
    if (count >= this.counted) return;
    if (count < this.firstHeld) throw new Error('snapshot texts let go of are saved already');
    const ends = this.endsMade();
    this.used = count === 0 ? 0 : ends[count - 1]! + 1;
    this.counted = count;
    this.hashed = Math.min(this.hashed, count);
    this.slots = undefined;
  }

  private startOf(n: number, ends: Uint32Array): number {
    return n === 0 ? 0 : ends[n - 1]! + 1;
  }

  private endsMade(): Uint32Array {
    if (!this.ends) {
      const steps = this.making(Infinity);
      while (!steps.next().done);
    }
    return this.ends!;
  }

  /**
   * Copies the bytes `fromBytes` was given into the pool, apart from the file they were read from,
   * and finds each text's end and hash (hundreds of thousands at a collector's size): run in steps
   * of `perStep` bytes and texts after the server listens (`prepareInSteps`), or at once by the
   * first use that comes before.
   */
  private *making(perStep: number): Generator<void, void> {
    if (this.ends) return;
    yield* this.copying(perStep);
    if (this.ends) return;
    const { pool, used } = this;
    const count = this.counted;
    const ends = new Uint32Array(Math.max(16, count));
    const hashes = new Uint32Array(Math.max(16, count));
    // With too few newlines in the bytes, the texts past the last are empty; with too many, the
    // last text holds them: neither reads.
    const last = used - 1;
    let from = 0;
    let stepped = 0;
    for (let n = 0; n < count; n += 1) {
      const at = n === count - 1 || from > last ? -1 : pool.indexOf(NEWLINE, from);
      ends[n] = at < 0 || at > last ? last : at;
      hashes[n] = hashOf(pool, from, ends[n]!);
      stepped += ends[n]! + 1 - from;
      from = ends[n]! + 1;
      if (stepped >= perStep) {
        stepped = 0;
        yield;
        if (this.ends) return;
      }
    }
    this.hashes = hashes;
    this.hashed = count;
    this.ends = ends;
  }

  /**
   * The first part of `making`: copies the bytes given into the pool, apart from the file they were
   * read from (which is then let go), checking their CRC-32s.
   */
  private *copying(perStep: number): Generator<void, void> {
    const { given } = this;
    if (!given) return;
    const bytes = given.reduce((sum, part) => sum + part.byteLength, 0);
    const pool = Buffer.allocUnsafe(Math.max(1024, bytes + 1));
    let used = 0;
    let damaged = false;
    for (const [k, part] of given.entries()) {
      let crc = 0;
      for (let o = 0; o < part.byteLength; o += perStep) {
        const piece = part.subarray(o, Math.min(part.byteLength, o + perStep));
        pool.set(piece, used);
        used += piece.byteLength;
        crc = crc32(piece, crc);
        if (perStep !== Infinity) yield;
        // Copied at once meanwhile, by a use that could not wait.
        if (this.given !== given) return;
      }
      damaged ||= this.givenCrcs[k] !== undefined && this.givenCrcs[k] !== crc;
    }
    if (used === 0 || pool[used - 1] !== NEWLINE) pool[used++] = NEWLINE;
    this.pool = pool;
    this.used = used;
    this.base = 0;
    this.given = undefined;
    this.damaged = damaged;
  }

  /**
   * `making` in steps, for whoever reads every text after the server listens (the index's check of a
   * saved index of format 3), or before the log uses them (once a saved index is loaded).
   */
  *prepareInSteps(): Generator<void, void> {
    yield* this.making(PREPARED_PER_STEP);
  }

  private slotsMade(): Int32Array {
    if (this.slots) return this.slots;
    let size = 64;
    while (size < this.counted * 2) size *= 2;
    const slots = new Int32Array(size);
    for (let n = 0; n < this.counted; n += 1) this.place(slots, n);
    this.slots = slots;
    return slots;
  }

  private place(slots: Int32Array, n: number): void {
    if ((n + 1) * 2 > slots.length) {
      this.slots = undefined;
      return;
    }
    if (n >= this.hashes.length) {
      const next = new Uint32Array(Math.max(64, this.hashes.length * 2, n + 1));
      next.set(this.hashes);
      this.hashes = next;
    }
    if (n >= this.hashed) {
      const ends = this.endsMade();
      this.hashes[n] = hashOf(this.pool, this.startOf(n, ends) - this.base, ends[n]! - this.base);
      this.hashed = n + 1;
    }
    const mask = slots.length - 1;
    let slot = this.hashes[n]! & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = n + 1;
  }
}

/** FNV-1a of a text's length, its first and its last bytes. */
function hashOf(buf: Uint8Array, start: number, end: number): number {
  let h = Math.imul(FNV_OFFSET ^ (end - start), FNV_PRIME);
  const head = Math.min(end, start + HASHED_HEAD);
  for (let i = start; i < head; i += 1) h = Math.imul(h ^ buf[i]!, FNV_PRIME);
  for (let i = Math.max(head, end - HASHED_TAIL); i < end; i += 1) h = Math.imul(h ^ buf[i]!, FNV_PRIME);
  return h >>> 0;
}

/**
 * Whether each part's CRC-32 is the one given, a slice of bytes a step:
 * tens of MB at a collector's size, checked while the server answers.
 */
export function* crcsMatchInSteps(
  parts: readonly Uint8Array[],
  crcs: readonly number[],
): Generator<void, boolean> {
  for (const [k, part] of parts.entries()) {
    const expected = crcs[k];
    let crc = 0;
    for (let o = 0; o < part.byteLength; o += PREPARED_PER_STEP) {
      if (o > 0) yield;
      crc = crc32(part.subarray(o, Math.min(part.byteLength, o + PREPARED_PER_STEP)), crc);
    }
    if (crc !== expected) return false;
  }
  return true;
}
