import { endianness } from 'node:os';
import type { IndexTables } from '../tables/index-tables.js';
import { inPieces, ITEMS_PER_LOOK } from '../../steps.js';

/**
 * The snapshot table's new part in a saved block (saved-index.ts, format 4), as binary columns: a
 * start copies them into the table instead of parsing each snapshot's text and interning its names
 * one by one, the larger part of a start at a collector's size.
 *
 * The interners a snapshot's numbers refer to are saved too, as their entries made since the
 * previous block (`from` of them before it), in order: loaded in the same order, every number means
 * what it meant. In the machine's byte order (little-endian wherever Melon is built for; a
 * big-endian machine does not read them and rebuilds the index from the log), counts first:
 *
 *   u32 snapshots | per interner (tracks, albums, artists, names, raw genres): u32 from, u32 new |
 *   u32 artist entries | u32 genre entries | u32 string encoding (0 UTF-8, 1 UTF-16LE) |
 *   u32 string bytes | u32 string lengths (UTF-16 units, every new entry in interner order) |
 *   i32 track | i32 album (-1: none) | i32 track name (-1) | i32 album name (-1) |
 *   u32 artists a snapshot | i32 artist | i32 artist name (one each per artist entry) |
 *   u32 genres a snapshot | i32 raw genre | f64 duration | the strings, one after the other
 *
 * A string table of one encoding decodes as one string (its entries' lengths checked against it),
 * each entry then decoded from its own bytes; UTF-16 keeps a lone surrogate (which UTF-8 cannot) as
 * it was.
 */
export const INTERNERS = ['tracks', 'albums', 'artists', 'names', 'rawGenres'] as const;

export interface SavedSnapshots {
  count: number;
  /** Per interner (INTERNERS' order): its size before the block, and how many entries it made since. */
  from: number[];
  added: number[];
  /** Those entries, one after the other, and each one's length. */
  text: string;
  lengths: Uint32Array;
  /** The entries' bytes as saved, and their encoding (0 UTF-8, 1 UTF-16LE). */
  strings: Buffer;
  encoding: number;
  track: Int32Array;
  album: Int32Array;
  trackName: Int32Array;
  albumName: Int32Array;
  artistCounts: Uint32Array;
  artists: Int32Array;
  artistNames: Int32Array;
  genreCounts: Uint32Array;
  genres: Int32Array;
  duration: Float64Array;
}

/** The interners' sizes, where a block's new entries start. */
export function internerCounts(tables: IndexTables): number[] {
  return interners(tables).map((i) => i.count);
}

function interners(tables: IndexTables) {
  return [tables.tracks, tables.albums, tables.artists, tables.names, tables.genres.raw];
}

/** String.prototype.isWellFormed (Node 20; not yet in the compiler's library). */
const wellFormed = (text: string) => (text as unknown as { isWellFormed(): boolean }).isWellFormed();

const HEAD_WORDS = 1 + 2 * INTERNERS.length + 4;

/** Snapshots [from, count) of `tables` and the interners' entries since `interned`, as bytes. */
export function encodeSnapshots(tables: IndexTables, from: number, interned: readonly number[]): Buffer {
  const logged = tables.snapshots.logged();
  const artists = logged.artists.from(from);
  const genres = logged.rawGenres.from(from);
  const columns = {
    track: logged.tracks.from(from),
    album: logged.album.from(from),
    trackName: logged.trackNames.from(from),
    albumName: logged.albumNames.from(from),
    artistCounts: artists.counts,
    artists: artists.values,
    artistNames: logged.artistNames.from(from).values,
    genreCounts: genres.counts,
    genres: genres.values,
    duration: logged.durations.from(from),
  };
  const lists = interners(tables).map((i, k) => i.values.slice(interned[k]));
  const joined = lists.map((values) => values.join('')).join('');
  const utf16 = !wellFormed(joined);
  const text = Buffer.from(joined, utf16 ? 'utf16le' : 'utf8');
  const head = new Uint32Array(HEAD_WORDS);
  head[0] = columns.track.length;
  lists.forEach((values, k) => {
    head[1 + 2 * k] = interned[k]!;
    head[2 + 2 * k] = values.length;
  });
  head[HEAD_WORDS - 4] = columns.artists.length;
  head[HEAD_WORDS - 3] = columns.genres.length;
  head[HEAD_WORDS - 2] = utf16 ? 1 : 0;
  head[HEAD_WORDS - 1] = text.length;
  const lengths = Uint32Array.from(lists.flat(), (s) => s.length);
  const parts = [
    head,
    lengths,
    columns.track,
    columns.album,
    columns.trackName,
    columns.albumName,
    columns.artistCounts,
    columns.artists,
    columns.artistNames,
    columns.genreCounts,
    columns.genres,
    columns.duration,
  ].map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength));
  return Buffer.concat([...parts, text]);
}

/** The saved snapshots in `bytes`; undefined when they are not of that shape. */
export function decodeSnapshots(bytes: Uint8Array): SavedSnapshots | undefined {
  // The columns are copied as they lie in memory: a big-endian machine rebuilds from the log.
  if (endianness() !== 'LE' || bytes.byteLength < HEAD_WORDS * 4) return undefined;
  let o = 0;
  const take = <T>(make: (buffer: ArrayBuffer) => T, count: number, size: number): T | undefined => {
    const end = o + count * size;
    if (end > bytes.byteLength) return undefined;
    // A copy, aligned for its type, apart from the file's bytes (a Buffer's `slice` is a view).
    const copy = make(Uint8Array.prototype.slice.call(bytes, o, end).buffer);
    o = end;
    return copy;
  };
  const head = take((b) => new Uint32Array(b), HEAD_WORDS, 4)!;
  const count = head[0]!;
  const from = INTERNERS.map((_, k) => head[1 + 2 * k]!);
  const added = INTERNERS.map((_, k) => head[2 + 2 * k]!);
  const [artistEntries, genreEntries, encoding, textBytes] = head.subarray(HEAD_WORDS - 4);
  const ints = (n: number) => take((b) => new Int32Array(b), n, 4);
  const counts = (n: number) => take((b) => new Uint32Array(b), n, 4);
  const lengths = counts(added.reduce((a, b) => a + b, 0));
  const track = ints(count);
  const album = ints(count);
  const trackName = ints(count);
  const albumName = ints(count);
  const artistCounts = counts(count);
  const artists = ints(artistEntries!);
  const artistNames = ints(artistEntries!);
  const genreCounts = counts(count);
  const genres = ints(genreEntries!);
  const duration = take((b) => new Float64Array(b), count, 8);
  if (
    !lengths ||
    !track ||
    !album ||
    !trackName ||
    !albumName ||
    !artistCounts ||
    !artists ||
    !artistNames ||
    !genreCounts ||
    !genres ||
    !duration ||
    encoding! > 1 ||
    o + textBytes! !== bytes.byteLength
  )
    return undefined;
  const strings = Buffer.from(Uint8Array.prototype.slice.call(bytes, o, o + textBytes!).buffer);
  const text = strings.toString(encoding === 1 ? 'utf16le' : 'utf8');
  if (lengths.reduce((a, b) => a + b, 0) !== text.length) return undefined;
  const saved = { count, from, added, text, lengths, strings, encoding: encoding!, track, album, trackName };
  return { ...saved, albumName, artistCounts, artists, artistNames, genreCounts, genres, duration };
}

/**
 * Whether every number refers to an entry the interners hold once the block's are added, the lists
 * add up and every duration is a length (finite, not negative). Whether the interners hold `from`
 * entries before the block is known only as it is added (addInterned).
 */
export function* snapshotsFit(saved: SavedSnapshots): Generator<void, boolean> {
  const sizes = saved.from.map((from, k) => from + saved.added[k]!);
  const [tracks, albums, artists, names, genres] = sizes as [number, number, number, number, number];
  const columns: [Int32Array, number, boolean][] = [
    [saved.track, tracks, false],
    [saved.album, albums, true],
    [saved.trackName, names, true],
    [saved.albumName, names, true],
    [saved.artists, artists, false],
    [saved.artistNames, names, false],
    [saved.genres, genres, false],
  ];
  for (const [column, size, none] of columns)
    for (let from = 0; from < column.length; from += CHECKED_PER_STEP) {
      yield;
      if (!inRange(column, from, Math.min(column.length, from + CHECKED_PER_STEP), size, none)) return false;
    }
  for (let from = 0; from < saved.count; from += CHECKED_PER_STEP) {
    yield;
    if (!lengths(saved.duration, from, Math.min(saved.count, from + CHECKED_PER_STEP))) return false;
  }
  return sum(saved.artistCounts) === saved.artists.length && sum(saved.genreCounts) === saved.genres.length;
}

// The checks' loops are plain functions, which V8 compiles early (a generator's loop it compiles late).

/** Whether `column[from, to)` are numbers of entries below `size` (or -1, where `none` may be). */
function inRange(column: Int32Array, from: number, to: number, size: number, none: boolean): boolean {
  for (let i = from; i < to; i += 1) {
    const v = column[i]!;
    if (v >= size || (v < 0 && !(none && v === -1))) return false;
  }
  return true;
}

/** Whether `ms[from, to)` are lengths: finite, not negative. */
function lengths(ms: Float64Array, from: number, to: number): boolean {
  for (let i = from; i < to; i += 1) if (!(ms[i]! >= 0 && ms[i] !== Infinity)) return false;
  return true;
}

function sum(counts: Uint32Array): number {
  let total = 0;
  for (let i = 0; i < counts.length; i += 1) total += counts[i]!;
  return total;
}

/** Numbers checked, and snapshots added, a step. */
const CHECKED_PER_STEP = 20_000;
const DEFINED_PER_STEP = 5_000;

/**
 * Adds the block's interner entries to `tables`, `perStep` strings at a time; throws when the
 * interners do not hold `from` entries or one is there already (the load then rebuilds).
 */
export function* addInterned(tables: IndexTables, saved: SavedSnapshots, perStep: number): Generator<void> {
  const all = interners(tables);
  const { lengths } = saved;
  const entry = entryReader(saved);
  let n = 0;
  for (const [k, added] of saved.added.entries()) {
    const interner = all[k]!;
    if (interner.count !== saved.from[k]) throw new Error('saved index: tables out of step');
    for (let i = 0; i < added; i += perStep) {
      if (i > 0) yield;
      const values: string[] = [];
      for (let j = i; j < Math.min(added, i + perStep); j += 1) values.push(entry(lengths[n++]!));
      if (k === 4) for (const value of values) tables.genres.intern(value);
      else interner.addSaved(values);
      if (interner.count !== saved.from[k] + i + values.length)
        throw new Error('saved index: tables out of step');
    }
  }
}

/**
 * Reads the saved entries one after the other, `length` UTF-16 units each, each a string of its own
 * decoded from its bytes. A slice of the block's decoded text would be V8's sliced string, which
 * keeps the whole text alive as long as the interners hold any one entry: for good.
 */
function entryReader({ text, strings, encoding }: SavedSnapshots): (length: number) => string {
  let at = 0;
  let byte = 0;
  if (encoding === 1) return (length) => strings.toString('utf16le', 2 * at, 2 * (at += length));
  if (text.length === strings.length) return (length) => strings.toString('latin1', at, (at += length));
  return (length) => {
    const bytes = Buffer.byteLength(text.slice(at, (at += length)));
    return strings.toString('utf8', byte, (byte += bytes));
  };
}

/**
 * Appends the saved snapshots to the table, their interners' entries added (`addInterned`): as
 * SnapshotTable.define makes them, to a table numbered by the log and counted as logged (a load).
 */
export function* defineSaved(tables: IndexTables, saved: SavedSnapshots): Generator<void, void> {
  const logged = tables.snapshots.logged();
  if (!logged.loadable) throw new Error('saved index: snapshots added to a table in use');
  logged.tracks.pushAll(saved.track);
  logged.album.pushAll(saved.album);
  logged.trackNames.pushAll(saved.trackName);
  logged.albumNames.pushAll(saved.albumName);
  logged.durations.pushAll(saved.duration);
  logged.artists.pushAll(saved.artistCounts, saved.artists);
  logged.artistNames.pushAll(saved.artistCounts, saved.artistNames);
  logged.rawGenres.pushAll(saved.genreCounts, saved.genres);
  // A play counts once per genre group and once per spelling, however often it is tagged. Room for
  // the block's lists at once: grown list by list, each would be copied again and again.
  logged.genreKeys.reserve(saved.count, saved.genres.length);
  logged.spellings.reserve(saved.count, saved.genres.length);
  let genre = 0;
  yield* inPieces(saved.count, ITEMS_PER_LOOK, DEFINED_PER_STEP, (from, to) => {
    genre = groupGenres(saved, from, to, genre, tables.genres, logged);
  });
}

/**
 * Adds the genre groups and spellings of saved snapshots [from, to), whose raw tags start at
 * `genre`; returns where the next snapshot's raw tags start.
 */
function groupGenres(
  { genres, genreCounts }: SavedSnapshots,
  from: number,
  to: number,
  genre: number,
  { rawKey, rawSpelling }: IndexTables['genres'],
  { genreKeys, spellings }: ReturnType<IndexTables['snapshots']['logged']>,
): number {
  for (let s = from; s < to; s += 1) {
    for (const end = genre + genreCounts[s]!; genre < end; genre += 1) {
      const raw = genres[genre]!;
      if (rawKey[raw]! < 0) continue;
      genreKeys.addOnce(rawKey[raw]!);
      spellings.addOnce(rawSpelling[raw]!);
    }
    genreKeys.close();
    spellings.close();
  }
  return genre;
}
