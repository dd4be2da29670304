import { decodeSnapshotText, snapshotLine, snapshotText, type PlaySnapshot } from './play-log-codec.js';

/**
 * The snapshots a version-2 play log defines, by number (see play-log-codec.ts): read from its
 * snapshot lines, or given back by the saved index when only the log's tail is read.
 */
export class LogSnapshots {
  /** Canonical text of each snapshot, by number. */
  readonly texts: string[] = [];
  readonly snapshots: PlaySnapshot[] = [];
  private readonly numbers = new Map<string, number>();

  /** Snapshots from their canonical texts (as `texts` holds them); undefined if one does not read. */
  static fromTexts(texts: readonly string[]): LogSnapshots | undefined {
    const out = new LogSnapshots();
    for (const text of texts) {
      const snapshot = decodeSnapshotText(text);
      if (!snapshot) return undefined;
      out.add(snapshot);
    }
    return out;
  }

  get count(): number {
    return this.snapshots.length;
  }

  /**
   * Reads a snapshot line's definition: true when it is the next number, or repeats one already
   * defined identically; false for anything else (the line is then unreadable).
   */
  define(n: number, snapshot: PlaySnapshot): boolean {
    if (n < this.count) return this.texts[n] === snapshotText(snapshot);
    if (n > this.count) return false;
    this.add(snapshot);
    return true;
  }

  /** The number of the entry's snapshot; a new one is defined, its line added to `lines`. */
  numberFor(entry: PlaySnapshot, lines: string[]): number {
    const text = snapshotText(entry);
    let n = this.numbers.get(text);
    if (n === undefined) {
      n = this.count;
      this.push(text, entry);
      lines.push(snapshotLine(n, text));
    }
    return n;
  }

  /** Forgets the snapshots from number `count` on (their lines never reached the file). */
  truncate(count: number): void {
    for (let n = count; n < this.count; n += 1) this.numbers.delete(this.texts[n]!);
    this.texts.length = count;
    this.snapshots.length = count;
  }

  private add(snapshot: PlaySnapshot): void {
    this.push(snapshotText(snapshot), snapshot);
  }

  private push(text: string, snapshot: PlaySnapshot): void {
    this.numbers.set(text, this.count);
    this.texts.push(text);
    this.snapshots.push({
      trackId: snapshot.trackId,
      albumId: snapshot.albumId,
      artistIds: [...snapshot.artistIds],
      genres: [...snapshot.genres],
      durationMs: snapshot.durationMs,
      trackName: snapshot.trackName,
      albumName: snapshot.albumName,
      artistNames: [...snapshot.artistNames],
    });
  }
}
