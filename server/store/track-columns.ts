import type { ArtworkInfo, TrackRecord } from '../domain/library.js';
import { ColumnTrack } from './column-track.js';
import { Interned } from './interned.js';
import { TextColumn } from './text-column.js';

/** Numbers a row: size, mtimeMs, dev, ino, durationMs (NaN: dev or ino absent). */
const NUMBERS = 5;
/** Small whole numbers a row: trackNumber, discNumber, year. */
const WHOLES = 3;
/** Pooled values a row: folder, albumId, artist, format, releaseMbid, artistIds, genres, artistMbids, artwork. */
const REFS = 9;
const [FOLDER, ALBUM, ARTIST, FORMAT, RELEASE, ARTIST_IDS, GENRES, ARTIST_MBIDS, ARTWORK] = [
  0, 1, 2, 3, 4, 5, 6, 7, 8,
];
/**
 * In a column of two bytes a value: a whole-number field that is null, and one whose value is kept
 * in `odd`. Other values are those in between and up to 0x7fff.
 */
const [NARROW_NULL, NARROW_ODD] = [-0x8000, -0x7fff];
/** The same once the column holds four bytes a value: a value not an integer of 32 bits is odd. */
const [NULL, ODD] = [-0x80000000, -0x7fffffff];
type Whole = 'trackNumber' | 'discNumber' | 'year';
const WHOLE_FIELDS: readonly Whole[] = ['trackNumber', 'discNumber', 'year'];

const EMPTY: readonly string[] = Object.freeze([]);
const EMPTY_ARTWORK: readonly ArtworkInfo[] = Object.freeze([]);
/** A pool of strings, each kept as a flat copy (see `strings` below). */
const textPool = () => new Interned<string>((value) => value, flat);

/**
 * A library's tracks held in columns, a row a track: numbers in typed arrays, values that repeat
 * (folders, album ids, credits, formats, genre and artist lists, covers) as numbers into pooled
 * tables, and each track's own strings (id, title, file name, recording id) as UTF-8 bytes. At a
 * collector's 200,000 tracks this is a few tens of MB where records as objects took ~80.
 *
 * Each row is seen through a ColumnTrack, a small object whose fields read the columns, so every
 * consumer of TrackRecord keeps working; see `plainTrack` for what a getter cannot do. Rows are only
 * ever added: an edited track is a new row, so a view of the library made before the edit keeps
 * reading what it read.
 */
export class TrackColumns {
  private rows = 0;
  /** Whether the columns are complete (see `seal`): rows are added one at a time after. */
  private sealed = false;
  private numbers = new Float64Array(64 * NUMBERS);
  // Two bytes a value while every value fits, four once one does not (`widen`): track and disc
  // numbers and years, and the numbers of pooled values, are small in most libraries.
  private wholes: Int16Array | Int32Array = new Int16Array(64 * WHOLES);
  private nullMark = NARROW_NULL;
  private oddMark = NARROW_ODD;
  private refs: Uint16Array | Uint32Array = new Uint16Array(64 * REFS);
  private readonly ids = new TextColumn();
  private readonly names = new TextColumn();
  private readonly files = new TextColumn();
  private readonly recordings = new TextColumn();
  /** Whole-number fields that did not fit their column, by row. */
  private readonly odd = new Map<number, Partial<Pick<TrackRecord, Whole>>>();
  // Kept strings are flat copies: a string cut from a longer one (a folder from its path, a value
  // JSON.parse took from a chunk of the file) would keep the whole longer one.
  private readonly strings = textPool();
  // A pool a field: each compares a track's value with the track before's first.
  private readonly albums = textPool();
  private readonly credits = textPool();
  private readonly formats = textPool();
  private readonly releases = textPool();
  /** Folders apart from other strings: a track's own folder is mostly the one before's. */
  private readonly folders = textPool();
  private readonly lists = new Interned<readonly string[]>(
    (values) => values.join('\u0000'),
    (values) =>
      values.length === 0 ? EMPTY : Object.freeze(values.map((value) => this.strings.pooled(value))),
    sameList,
  );
  private readonly pictures = new Interned<readonly ArtworkInfo[]>(
    (values) => JSON.stringify(values),
    (values) =>
      values.length === 0
        ? EMPTY_ARTWORK
        : Object.freeze(
            values.map((picture) =>
              Object.freeze({
                ...picture,
                type: this.strings.pooled(picture.type),
                mime: this.strings.pooled(picture.mime),
              }),
            ),
          ),
    samePictures,
  );

  get length(): number {
    return this.rows;
  }

  /** The bytes its typed arrays and text columns hold, spare room included (not the pooled values). */
  get byteLength(): number {
    const texts = [this.ids, this.names, this.files, this.recordings];
    const arrays = this.numbers.byteLength + this.wholes.byteLength + this.refs.byteLength;
    return texts.reduce((sum, column) => sum + column.byteLength, arrays);
  }

  /** Puts `track` (a plain record, or a view of any columns) in a new row; the view of that row. */
  add(track: TrackRecord): ColumnTrack {
    const row = this.rows;
    // Twice the room while a library is read or replaced; a sixteenth more for an edit after.
    if (row * NUMBERS === this.numbers.length) this.grow(this.sealed ? row + (row >> 4) + 1 : row * 2);
    const n = row * NUMBERS;
    this.numbers[n] = track.size;
    this.numbers[n + 1] = track.mtimeMs;
    this.numbers[n + 2] = track.dev ?? NaN;
    this.numbers[n + 3] = track.ino ?? NaN;
    this.numbers[n + 4] = track.durationMs;
    for (let i = 0; i < WHOLES; i++) {
      const field = WHOLE_FIELDS[i]!;
      const value = track[field];
      const fits = value !== null && (value | 0) === value && value !== NULL && value !== ODD;
      if (fits && (value <= NARROW_ODD || value > 0x7fff)) this.widenWholes();
      this.wholes[row * WHOLES + i] = value === null ? this.nullMark : fits ? value : this.oddMark;
      if (value !== null && !fits) this.odd.set(row, { ...this.odd.get(row), [field]: value });
    }
    const path = track.path;
    const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1;
    const r = row * REFS;
    this.setRef(r + FOLDER, this.folders.numberOf(path.slice(0, cut)));
    this.setRef(r + ALBUM, this.albums.numberOf(track.albumId ?? undefined));
    this.setRef(r + ARTIST, this.credits.numberOf(track.artist));
    this.setRef(r + FORMAT, this.formats.numberOf(track.format));
    this.setRef(r + RELEASE, this.releases.numberOf(track.releaseMbid));
    this.setRef(r + ARTIST_IDS, this.lists.numberOf(track.artistIds));
    this.setRef(r + GENRES, this.lists.numberOf(track.genres));
    this.setRef(r + ARTIST_MBIDS, this.lists.numberOf(track.artistMbids));
    this.setRef(r + ARTWORK, this.pictures.numberOf(track.artwork));
    this.ids.push(track.id);
    this.names.push(track.name);
    this.files.push(path.slice(cut));
    this.recordings.push(track.recordingMbid);
    this.rows++;
    return new ColumnTrack(this, row);
  }

  /**
   * Gives back the spare room kept for more rows and the tables used to pool new values: for columns
   * that are complete (a library read or replaced whole). An edit later still adds rows.
   */
  seal(): void {
    this.grow(this.rows);
    this.sealed = true;
    for (const column of [this.ids, this.names, this.files, this.recordings]) column.trim();
    const pools = [this.strings, this.albums, this.credits, this.formats, this.releases, this.folders];
    for (const pool of [...pools, this.lists, this.pictures]) pool.seal();
  }

  id(row: number): string {
    return this.ids.at(row)!;
  }

  hasId(row: number, id: string): boolean {
    return this.ids.is(row, id);
  }

  /** textHash of the row's id, without making it. */
  idHash(row: number): number {
    return this.ids.hash(row);
  }

  name(row: number): string {
    return this.names.at(row)!;
  }

  path(row: number): string {
    return this.folders.at(this.refs[row * REFS + FOLDER]!)! + this.files.at(row)!;
  }

  size(row: number): number {
    return this.numbers[row * NUMBERS]!;
  }

  mtimeMs(row: number): number {
    return this.numbers[row * NUMBERS + 1]!;
  }

  dev(row: number): number | undefined {
    const value = this.numbers[row * NUMBERS + 2]!;
    return Number.isNaN(value) ? undefined : value;
  }

  ino(row: number): number | undefined {
    const value = this.numbers[row * NUMBERS + 3]!;
    return Number.isNaN(value) ? undefined : value;
  }

  durationMs(row: number): number {
    return this.numbers[row * NUMBERS + 4]!;
  }

  /** Field `at` of trackNumber, discNumber, year. */
  whole(row: number, at: 0 | 1 | 2): number | null {
    const value = this.wholes[row * WHOLES + at]!;
    if (value === this.nullMark) return null;
    return value === this.oddMark ? this.odd.get(row)![WHOLE_FIELDS[at]!]! : value;
  }

  albumId(row: number): string | null {
    return this.albums.at(this.refs[row * REFS + ALBUM]!) ?? null;
  }

  artist(row: number): string | undefined {
    return this.credits.at(this.refs[row * REFS + ARTIST]!);
  }

  format(row: number): string {
    return this.formats.at(this.refs[row * REFS + FORMAT]!)!;
  }

  releaseMbid(row: number): string | undefined {
    return this.releases.at(this.refs[row * REFS + RELEASE]!);
  }

  artistIds(row: number): string[] {
    return this.lists.at(this.refs[row * REFS + ARTIST_IDS]!) as string[];
  }

  genres(row: number): string[] {
    return this.lists.at(this.refs[row * REFS + GENRES]!) as string[];
  }

  artistMbids(row: number): string[] | undefined {
    return this.lists.at(this.refs[row * REFS + ARTIST_MBIDS]!) as string[] | undefined;
  }

  artwork(row: number): ArtworkInfo[] {
    return this.pictures.at(this.refs[row * REFS + ARTWORK]!) as ArtworkInfo[];
  }

  recordingMbid(row: number): string | undefined {
    return this.recordings.at(row);
  }

  private setRef(at: number, value: number): void {
    if (value > 0xffff && this.refs instanceof Uint16Array) this.refs = Uint32Array.from(this.refs);
    this.refs[at] = value;
  }

  private widenWholes(): void {
    if (!(this.wholes instanceof Int16Array)) return;
    const wide = new Int32Array(this.wholes.length);
    // The markers for null and for a value kept in `odd` become the wider ones.
    for (let i = 0; i < wide.length; i++) {
      const value = this.wholes[i]!;
      wide[i] = value === NARROW_NULL ? NULL : value === NARROW_ODD ? ODD : value;
    }
    this.wholes = wide;
    this.nullMark = NULL;
    this.oddMark = ODD;
  }

  private grow(rows: number): void {
    const room = Math.max(rows, 1);
    const numbers = new Float64Array(room * NUMBERS);
    numbers.set(this.numbers.subarray(0, this.rows * NUMBERS));
    this.numbers = numbers;
    const wholes =
      this.wholes instanceof Int16Array ? new Int16Array(room * WHOLES) : new Int32Array(room * WHOLES);
    wholes.set(this.wholes.subarray(0, this.rows * WHOLES));
    this.wholes = wholes;
    const refs =
      this.refs instanceof Uint16Array ? new Uint16Array(room * REFS) : new Uint32Array(room * REFS);
    refs.set(this.refs.subarray(0, this.rows * REFS));
    this.refs = refs;
  }
}

function sameList(values: readonly string[], kept: readonly string[]): boolean {
  if (values.length !== kept.length) return false;
  for (let i = 0; i < values.length; i++) if (values[i] !== kept[i]) return false;
  return true;
}

function samePictures(values: readonly ArtworkInfo[], kept: readonly ArtworkInfo[]): boolean {
  if (values.length !== kept.length) return false;
  for (let i = 0; i < values.length; i++) {
    const [a, b] = [values[i]!, kept[i]!];
    if (Object.keys(a).length !== Object.keys(b).length) return false;
    for (const key of Object.keys(b) as Array<keyof ArtworkInfo>) if (a[key] !== b[key]) return false;
  }
  return true;
}

function flat(value: string): string {
  // Through JSON, not a Buffer: a lone surrogate comes back as it was.
  return value.length < 13 ? value : (JSON.parse(JSON.stringify(value)) as string);
}
