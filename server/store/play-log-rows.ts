import { ROW_EXPLICIT_AT, ROW_SKIP, type LoggedNames, type LoggedRows } from '../domain/play.js';
import { ByteInterner, FNV_OFFSET, FNV_PRIME } from './byte-interner.js';
import { BACKSLASH, COMMA, decodePlayLineSlowly, MINUS, NINE, QUOTE, ZERO } from './play-log-codec.js';
import type { LogSnapshots } from './play-log-snapshots.js';

/** Rows handed over at a time: big enough that a batch costs nothing per row, small beside the log. */
const BATCH_ROWS = 1 << 16;

const OPEN = 0x5b;
const CLOSE = 0x5d;
const N = 0x6e;
const U = 0x75;
const L = 0x6c;
/** `kind` by type letter (play-log-codec.ts): p, s, P, S; -1 for any other byte. */
const KINDS = new Int8Array(256).fill(-1);
KINDS[0x70] = 0;
KINDS[0x73] = ROW_SKIP;
KINDS[0x50] = ROW_EXPLICIT_AT;
KINDS[0x53] = ROW_SKIP | ROW_EXPLICIT_AT;

/** Bytes a row takes in a batch's columns (below, in this order). */
const ROW_BYTES =
  2 * Float64Array.BYTES_PER_ELEMENT + 3 * Uint32Array.BYTES_PER_ELEMENT + Uint8Array.BYTES_PER_ELEMENT;

/**
 * A batch's columns, in one block of memory: its own, or shared memory that a worker thread fills
 * and the main thread reads (play-log-row-thread.ts).
 */
export class RowBatch implements LoggedRows {
  static readonly BYTES = BATCH_ROWS * ROW_BYTES;
  count = 0;
  toCome = 0;
  readonly at: Float64Array;
  readonly line: Float64Array;
  readonly user: Uint32Array;
  readonly snapshot: Uint32Array;
  readonly device: Uint32Array;
  readonly kind: Uint8Array;

  constructor(memory: ArrayBufferLike = new ArrayBuffer(RowBatch.BYTES)) {
    const n = BATCH_ROWS;
    this.at = new Float64Array(memory, 0, n);
    this.line = new Float64Array(memory, 8 * n, n);
    this.user = new Uint32Array(memory, 16 * n, n);
    this.snapshot = new Uint32Array(memory, 20 * n, n);
    this.device = new Uint32Array(memory, 24 * n, n);
    this.kind = new Uint8Array(memory, 28 * n, n);
  }
}

/**
 * Reads the log lines of a version-2 play log (play-log-codec.ts) into batches of `LoggedRows`
 * without making an object or a string per line: numbers are read from the bytes, user ids and
 * device names are numbered by their bytes (byte-interner.ts), and the log id is only checked (an
 * index reads it back from the line when it needs it). It reads what `decodePlayLine` reads, with the
 * same result; lines its byte reader does not expect (a string with escapes, a time with a
 * fraction) are read with JSON.parse, as there.
 */
export class PlayRowReader {
  readonly users = new ByteInterner();
  readonly devices = new ByteInterner();
  /** The batch being filled: by default one, filled again once handed over (millions of rows make no garbage). */
  private batch: RowBatch;

  /** Where the last row's line ends in the log. */
  private end = 0;
  private rows = 0;
  /**
   * The bytes of the lines read as rows. Not the span from the first row to the last: a log defines
   * most of its snapshots early, in lines between the first rows, and counting their bytes would
   * make every row look long and the rows to come few.
   */
  private rowBytes = 0;
  /** Per snapshot number: 0 not looked at yet, 1 there, 2 its text (from a saved index) does not read. */
  private usable = new Uint8Array(1024);
  private readonly names: LoggedNames;

  /**
   * Rows of the log whose snapshots `snapshots` defines, handed to `deliver` with their names;
   * `fileBytes`: the log's size, for the estimate of the rows to come. `nextBatch` gives the batch
   * to fill next, the first one included, once the last is handed over.
   */
  constructor(
    private readonly snapshots: Pick<LogSnapshots, 'count' | 'at'>,
    private readonly deliver: (rows: LoggedRows, names: LoggedNames) => void,
    private readonly fileBytes = 0,
    private readonly nextBatch: () => RowBatch = oneBatch(),
  ) {
    this.batch = nextBatch();
    this.names = {
      users: this.users.values,
      devices: this.devices.values,
      snapshot: (n) => snapshots.at(n),
    };
  }

  /**
   * Reads the line `buf[start, end)` (without its newline), which starts at byte `offset` of the
   * log, into the batch; false when it is not a log line of a snapshot defined before it (then
   * nothing is added). A log of a snapshot whose text does not read is a whole line but no row, as
   * `lineReader` has it. A full batch is handed over at once.
   */
  read(buf: Buffer, start: number, end: number, offset: number): boolean {
    const defined = this.snapshots.count;
    const b = this.batch;
    const row = b.count;
    let pos = start + 1;
    fast: {
      if (buf[start] !== OPEN || buf[end - 1] !== CLOSE) break fast;
      // The time: an integer of up to 15 digits (exact in a double).
      const negative = buf[pos] === MINUS;
      if (negative) pos += 1;
      let from = pos;
      let at = 0;
      for (let c = buf[pos]!; pos < end && c >= ZERO && c <= NINE; c = buf[++pos]!) at = at * 10 + c - ZERO;
      if (pos === from || pos - from > 15 || buf[pos++] !== COMMA) break fast;
      // The user id, a string without escapes, numbered by its bytes.
      if (buf[pos++] !== QUOTE) break fast;
      from = pos;
      let hash = FNV_OFFSET;
      for (let c = buf[pos]!; pos < end && c !== QUOTE; c = buf[++pos]!) {
        if (c === BACKSLASH) break fast;
        hash = Math.imul(hash ^ c, FNV_PRIME);
      }
      if (pos >= end) break fast;
      const user = this.users.key(buf, from, pos, hash >>> 0);
      pos += 1;
      if (buf[pos++] !== COMMA) break fast;
      // The snapshot number.
      from = pos;
      let snapshot = 0;
      for (let c = buf[pos]!; pos < end && c >= ZERO && c <= NINE; c = buf[++pos]!)
        snapshot = snapshot * 10 + c - ZERO;
      if (pos === from || pos - from > 15 || buf[pos++] !== COMMA) break fast;
      // The device: null or a string without escapes.
      let device = 0;
      if (buf[pos] === N) {
        if (buf[pos + 1] !== U || buf[pos + 2] !== L || buf[pos + 3] !== L) break fast;
        pos += 4;
      } else {
        if (buf[pos++] !== QUOTE) break fast;
        from = pos;
        hash = FNV_OFFSET;
        for (let c = buf[pos]!; pos < end && c !== QUOTE; c = buf[++pos]!) {
          if (c === BACKSLASH) break fast;
          hash = Math.imul(hash ^ c, FNV_PRIME);
        }
        if (pos >= end) break fast;
        device = this.devices.key(buf, from, pos, hash >>> 0) + 1;
        pos += 1;
      }
      // The type letter in quotes.
      if (buf[pos] !== COMMA || buf[pos + 1] !== QUOTE || buf[pos + 3] !== QUOTE) break fast;
      const kind = KINDS[buf[pos + 2]!]!;
      pos += 4;
      if (kind < 0 || buf[pos++] !== COMMA) break fast;
      // The log id: only checked to be a string without escapes ending the array.
      if (buf[pos++] !== QUOTE) break fast;
      for (let c = buf[pos]!; pos < end && c !== QUOTE; c = buf[++pos]!) if (c === BACKSLASH) break fast;
      if (pos !== end - 2) break fast;
      if (snapshot >= defined) return false;
      if (!this.isUsable(snapshot)) return true;
      b.at[row] = negative ? -at : at;
      b.user[row] = user;
      b.snapshot[row] = snapshot;
      b.device[row] = device;
      b.kind[row] = kind;
      return this.commit(offset, end - start + 1);
    }
    return this.readSlowly(buf, start, end, offset, defined);
  }

  /**
   * Hands over the rows not handed over yet (the batch is then filled again from its start); how
   * many rows were read in all.
   */
  flush(): number {
    if (this.batch.count === 0) return this.rows;
    this.batch.toCome = this.rowBytes > 0 ? Math.max(0, this.fileBytes - this.end) / this.rowBytes : 0;
    this.deliver(this.batch, this.names);
    this.batch.count = 0;
    this.batch = this.nextBatch();
    this.batch.count = 0;
    return this.rows;
  }

  private isUsable(n: number): boolean {
    if (n >= this.usable.length) {
      const more = new Uint8Array(Math.max(n + 1, this.usable.length * 2));
      more.set(this.usable);
      this.usable = more;
    }
    if (this.usable[n] === 0) this.usable[n] = this.snapshots.at(n) ? 1 : 2;
    return this.usable[n] === 1;
  }

  /** Adds the row filled in at `count`, whose line starts at `offset` and takes `bytes` with its newline. */
  private commit(offset: number, bytes: number): boolean {
    const b = this.batch;
    this.end = offset + bytes;
    this.rows += 1;
    this.rowBytes += bytes;
    b.line[b.count] = offset;
    b.count += 1;
    if (b.count === BATCH_ROWS) this.flush();
    return true;
  }

  private readSlowly(buf: Buffer, start: number, end: number, offset: number, defined: number): boolean {
    const line = decodePlayLineSlowly(buf.toString('utf8', start, end));
    if (!line || line.snapshot >= defined) return false;
    if (!this.isUsable(line.snapshot)) return true;
    const b = this.batch;
    const row = b.count;
    b.at[row] = line.at;
    b.user[row] = this.users.keyOf(line.userId);
    b.snapshot[row] = line.snapshot;
    b.device[row] = line.device === null ? 0 : this.devices.keyOf(line.device) + 1;
    b.kind[row] = (line.type === 'skip' ? ROW_SKIP : 0) | (line.explicitAt ? ROW_EXPLICIT_AT : 0);
    return this.commit(offset, end - start + 1);
  }
}

function oneBatch(): () => RowBatch {
  const batch = new RowBatch();
  return () => batch;
}
