import { bytesHash, textHash } from './text-hash.js';

/**
 * One string a row, all of them in one buffer of UTF-8 bytes with the row's end beside it: a
 * collector's 200,000 titles or file names as a few MB of bytes, instead of 200,000 string objects
 * of two bytes a character and a header each. A row may be absent (undefined). A string is made
 * again each time a row is read: a column suits what is read now and then (a page, a sort's keys),
 * not what a loop reads over and over.
 */
export class TextColumn {
  private bytes = Buffer.allocUnsafeSlow(1024);
  private used = 0;
  /** Row r's bytes are [ends[r - 1] (0 for row 0), ends[r]). */
  private ends = new Uint32Array(64);
  private rows = 0;
  /** Rows that hold no string, made at the first such row (most columns have none). */
  private absent: Uint8Array | undefined;
  /**
   * Room grows by a sixteenth once trimmed, not twice: a complete column takes a row now
   * and then (an edit), and doubling a collector's column for one row would keep MBs spare.
   */
  private growth = 2;
  /** Whether every byte so far is ASCII: such bytes are read back as Latin-1, which is faster. */
  private ascii = true;
  /** Strings UTF-8 cannot hold (a lone surrogate, as a damaged tag may give), kept as they are. */
  private unpaired: Map<number, string> | undefined;

  get length(): number {
    return this.rows;
  }

  push(value: string | undefined): void {
    if (this.rows === this.ends.length) this.ends = grown(this.ends, Math.ceil(this.rows * this.growth));
    if (value === undefined) {
      this.absent ??= new Uint8Array(this.ends.length);
      if (this.absent.length < this.ends.length) this.absent = grown(this.absent, this.ends.length);
      this.absent[this.rows] = 1;
    } else if (!isWellFormed(value)) {
      (this.unpaired ??= new Map()).set(this.rows, value);
    } else if (value.length > 0) {
      // Three bytes a UTF-16 unit at most.
      const most = this.used + value.length * 3;
      if (most > this.bytes.length) {
        const bigger = Buffer.allocUnsafeSlow(Math.max(most, Math.ceil(this.bytes.length * this.growth)));
        this.bytes.copy(bigger, 0, 0, this.used);
        this.bytes = bigger;
      }
      const written = this.bytes.write(value, this.used, 'utf8');
      // Any character past ASCII takes two bytes or more.
      if (written !== value.length) this.ascii = false;
      this.used += written;
    }
    this.ends[this.rows++] = this.used;
  }

  at(row: number): string | undefined {
    if (this.absent !== undefined && this.absent[row] === 1) return undefined;
    if (this.unpaired !== undefined && this.unpaired.has(row)) return this.unpaired.get(row);
    const start = row === 0 ? 0 : this.ends[row - 1]!;
    const end = this.ends[row]!;
    if (start === end) return '';
    // Buffer's own slicers: toString checks its arguments first, a cost at every read of a row.
    const bytes = this.bytes as unknown as Slicers;
    return this.ascii ? bytes.latin1Slice(start, end) : bytes.utf8Slice(start, end);
  }

  /** Whether row `row` holds `value`, compared without making the row's string where it can be. */
  is(row: number, value: string): boolean {
    if (!this.ascii || this.absent !== undefined || this.unpaired !== undefined)
      return this.at(row) === value;
    const start = row === 0 ? 0 : this.ends[row - 1]!;
    if (this.ends[row]! - start !== value.length) return false;
    for (let i = 0; i < value.length; i++) if (this.bytes[start + i] !== value.charCodeAt(i)) return false;
    return true;
  }

  /** textHash of row `row`'s string (of '' for an absent row), from its bytes where it can be. */
  hash(row: number): number {
    if (!this.ascii || this.absent !== undefined || this.unpaired !== undefined)
      return textHash(this.at(row) ?? '');
    return bytesHash(this.bytes, row === 0 ? 0 : this.ends[row - 1]!, this.ends[row]!);
  }

  /** The bytes its arrays hold, spare room included. */
  get byteLength(): number {
    return this.bytes.length + this.ends.byteLength + (this.absent?.byteLength ?? 0);
  }

  /** Gives back the spare room kept for more rows: for a column that is complete. */
  trim(): void {
    this.growth = 1.0625;
    if (this.bytes.length > this.used) {
      const exact = Buffer.allocUnsafeSlow(Math.max(1, this.used));
      this.bytes.copy(exact, 0, 0, this.used);
      this.bytes = exact;
    }
    this.ends = this.ends.slice(0, Math.max(1, this.rows));
    if (this.absent) this.absent = this.absent.slice(0, Math.max(1, this.rows));
  }
}

function grown<T extends Uint8Array | Uint32Array>(array: T, length: number): T {
  const bigger = new (array.constructor as new (length: number) => T)(Math.max(length, 64));
  bigger.set(array);
  return bigger;
}

const isWellFormed = (value: string): boolean =>
  (value as unknown as { isWellFormed(): boolean }).isWellFormed();

interface Slicers {
  latin1Slice(start: number, end: number): string;
  utf8Slice(start: number, end: number): string;
}
