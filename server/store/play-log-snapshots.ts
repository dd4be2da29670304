import { decodeSnapshotText, snapshotLine, snapshotText } from './play-log-codec.js';
import type { PlaySnapshot } from '../domain/play.js';
import { SnapshotTexts } from './snapshot-texts.js';

/**
 * The snapshots a version-2 play log defines, by number (see play-log-codec.ts): read from its
 * snapshot lines, or given back by the saved index when only the log's tail is read.
 */
export class LogSnapshots {
  /** Canonical text of each snapshot, by number (replaced whole by `repairFrom`). */
  private held = SnapshotTexts.empty();
  /**
   * Each snapshot parsed, by number, while the file is read. Those given back as texts are parsed
   * at their first use: a log's tail refers to few of the tens of thousands a saved index holds.
   */
  private readonly parsedAt: Array<PlaySnapshot | undefined> = [];
  /**
   * Snapshots from their canonical texts, each parsed at its first use: one whose text does not
   * read is none (`at`). Whoever gave the texts checks them whole (in the background).
   */
  static fromTexts(texts: SnapshotTexts): LogSnapshots {
    const out = new LogSnapshots();
    // Written by this code, the texts are canonical already: they are the keys as they stand.
    out.held = texts;
    return out;
  }

  /**
   * Lets go of the texts of snapshots [0, upTo), once they are saved and the file they came from
   * is read: `textOf` gives them again (SnapshotTexts.forget).
   */
  forgetSaved(upTo: number, textOf: (n: number) => string | undefined): void {
    if (this.parsed) return;
    this.held.forget(upTo, textOf);
  }

  /** The texts, by number: those of a saved index are made into strings only when asked for. */
  get texts(): SnapshotTexts {
    return this.held;
  }

  /**
   * Snapshot `n` while the file is read (none after `release`); undefined when there is none, or
   * when its text, given back by a saved index, does not read.
   */
  at(n: number): PlaySnapshot | undefined {
    const parsed = this.parsedAt[n];
    if (parsed || !this.parsed || n >= this.count) return parsed;
    const snapshot = decodeSnapshotText(this.held.text(n));
    this.parsedAt[n] = snapshot;
    return snapshot;
  }

  get count(): number {
    return this.held.count;
  }

  /**
   * Forgets the parsed snapshots, once the file is read: writing needs only the texts. (A new
   * log's snapshot is then found by its text, a microsecond per append.)
   */
  release(): void {
    this.parsed = false;
    this.parsedAt.length = 0;
    this.lastOfTrack.clear();
  }

  private parsed = true;

  /**
   * Reads a snapshot line's definition: true when it is the next number, or repeats one already
   * defined identically; false for anything else (the line is then unreadable).
   */
  define(n: number, snapshot: PlaySnapshot): boolean {
    if (n < this.count) return this.held.text(n) === snapshotText(snapshot);
    if (n > this.count) return false;
    this.add(snapshot);
    return true;
  }

  /** The number of the entry's snapshot; a new one is defined, its line added to `lines`. */
  numberFor(entry: PlaySnapshot, lines: string[]): number {
    // Most logs of a track have the snapshot its previous log had: compared first, without text.
    const previous = this.parsed ? this.lastOfTrack.get(entry.trackId) : undefined;
    const last = previous === undefined ? undefined : this.at(previous);
    if (last && sameSnapshot(last, entry)) return previous!;
    const text = snapshotText(entry);
    let n: number | undefined = this.held.indexOf(text);
    if (n < 0) {
      n = this.count;
      this.push(text, entry);
      lines.push(snapshotLine(n, text));
    }
    if (this.parsed && previous !== n) this.lastOfTrack.set(entry.trackId, n);
    return n;
  }

  /** Per track id, the number of the snapshot its latest written log had. */
  private readonly lastOfTrack = new Map<string, number>();

  /**
   * Takes the texts of `read` (the log file's own definitions) where they differ from the ones held:
   * texts a damaged saved index gave back are then replaced by what the file says, so the next save
   * writes them right and a log is not given a second definition of a snapshot it has.
   */
  repairFrom(read: LogSnapshots): void {
    const texts = this.held.slice(0);
    let changed = false;
    for (let n = 0; n < Math.min(this.count, read.count); n += 1) {
      const text = read.held.text(n);
      if (texts[n] === text) continue;
      texts[n] = text;
      this.parsedAt[n] = undefined;
      for (const [track, at] of this.lastOfTrack) if (at === n) this.lastOfTrack.delete(track);
      changed = true;
    }
    if (changed) this.held = SnapshotTexts.fromTexts(texts);
  }

  /** Forgets the snapshots from number `count` on (their lines never reached the file). */
  truncate(count: number): void {
    for (const [track, n] of this.lastOfTrack) if (n >= count) this.lastOfTrack.delete(track);
    this.held.truncate(count);
    this.parsedAt.length = Math.min(this.parsedAt.length, count);
  }

  private add(snapshot: PlaySnapshot): void {
    this.push(snapshotText(snapshot), snapshot);
  }

  private push(text: string, snapshot: PlaySnapshot): void {
    this.held.push(text);
    if (!this.parsed) return;
    this.parsedAt[this.count - 1] = {
      trackId: snapshot.trackId,
      albumId: snapshot.albumId,
      artistIds: [...snapshot.artistIds],
      genres: [...snapshot.genres],
      durationMs: snapshot.durationMs,
      trackName: snapshot.trackName,
      albumName: snapshot.albumName,
      artistNames: [...snapshot.artistNames],
    };
  }
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}

/** Whether two snapshots are the same, field by field (NaN durations alike, as their text is). */
export function sameSnapshot(a: PlaySnapshot, b: PlaySnapshot): boolean {
  return (
    a.trackId === b.trackId &&
    a.albumId === b.albumId &&
    // Every non-finite duration is written as null: all of them are one snapshot.
    (a.durationMs === b.durationMs || (!Number.isFinite(a.durationMs) && !Number.isFinite(b.durationMs))) &&
    a.trackName === b.trackName &&
    a.albumName === b.albumName &&
    sameStrings(a.artistIds, b.artistIds) &&
    sameStrings(a.genres, b.genres) &&
    sameStrings(a.artistNames, b.artistNames)
  );
}
