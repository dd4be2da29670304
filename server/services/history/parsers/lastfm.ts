import type { ParsedEntry } from '../../../domain/listen.js';
import { parseIsoDate } from '../../../domain/dates.js';
import { byteLines, MAX_ENTRY_CHARS, type ByteReader } from './streams.js';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
/** "31 Jan 2021 14:03" (lastfm-to-csv and its kin), in UTC. */
const LASTFM_DATE = /^(\d{1,2}) ([A-Za-z]{3})[a-z]* (\d{4}),? (\d{1,2}):(\d{2})(?::(\d{2}))?$/u;

/** A scrobble's date: the export tools' "31 Jan 2021 14:03" (UTC), Unix seconds, or ISO 8601 (UTC when no offset). */
export function parseLastfmDate(text: string): number | null {
  return parseLastfmTime(text)?.at ?? null;
}

/** A scrobble's date (parseLastfmDate) and how uncertain it is: a minute when it has no seconds. */
export function parseLastfmTime(text: string): { at: number; windowMs: number } | null {
  const value = text.trim();
  if (/^\d{9,11}$/u.test(value)) return { at: Number(value) * 1000, windowMs: 0 };
  const m = LASTFM_DATE.exec(value);
  if (m) {
    const month = MONTHS.indexOf(m[2]!.toLowerCase());
    if (month < 0) return null;
    const ms = Date.UTC(Number(m[3]), month, Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0));
    if (Number.isNaN(ms) || new Date(ms).getUTCDate() !== Number(m[1])) return null;
    return { at: ms, windowMs: m[6] === undefined ? MINUTE_MS : 0 };
  }
  const local = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2})?$/u.exec(value);
  const at = parseIsoDate(local ? value + 'Z' : value);
  if (at === null) return null;
  const withSeconds = local ? local[1] !== undefined : /T\d{2}:\d{2}:\d{2}/u.test(value);
  return { at, windowMs: withSeconds ? 0 : MINUTE_MS };
}

const MINUTE_MS = 60_000;

/** Splits CSV rows (RFC 4180: quoted fields, doubled quotes, fields across lines). */
export async function* csvRows(
  source: ByteReader,
  progress?: { read: number },
): AsyncGenerator<string[] | null> {
  let pending = '';
  for await (const line of byteLines(source, progress)) {
    if (line === null) {
      // A line too long to keep ends the row it is in.
      pending = '';
      yield null;
      continue;
    }
    const text = pending ? `${pending}\n${line}` : line;
    const row = splitRow(text);
    if (row === 'open') {
      if (text.length > MAX_ENTRY_CHARS) {
        pending = '';
        yield null;
      } else pending = text;
      continue;
    }
    pending = '';
    yield row;
  }
  if (pending) yield null;
}

export function splitRow(text: string): string[] | 'open' {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      fields.push(field);
      field = '';
    } else field += c;
  }
  if (quoted) return 'open';
  fields.push(field);
  return fields;
}

/**
 * Where a Last.fm CSV keeps each field: the export tools differ in their columns and their order,
 * and each is recognised by its header line (detect.ts).
 */
export interface CsvLayout {
  /** The header line's fields, lower case, as the tool writes them; null: rows only. */
  header: string | null;
  columns: number;
  artist: number;
  album: number;
  title: number;
  date: number;
  /** The recording's MBID (Last.fm's track mbid), when the tool writes it. */
  mbid?: number;
}

/** `artist,album,title,date` rows, with that header or without one (the form Melon read first). */
export const PLAIN_CSV: CsvLayout = {
  header: 'artist,album,title,date',
  columns: 4,
  artist: 0,
  album: 1,
  title: 2,
  date: 3,
};

/** Every layout with a header line, as the tools write them. */
export const CSV_LAYOUTS: Record<string, CsvLayout> = {
  plain: PLAIN_CSV,
  // benjaminbenben's lastfm-to-csv: the title's column is called `name`.
  benjaminbenben: { header: 'artist,album,name,date', columns: 4, artist: 0, album: 1, title: 2, date: 3 },
  // Libre.fm's export: the title before the album.
  librefm: { header: 'artist,track,album,time', columns: 4, artist: 0, title: 1, album: 2, date: 3 },
  // lastfm.ghan.nl: the Unix time first, MBIDs beside the names, every cell quoted.
  ghan: {
    header: 'uts,utc_time,artist,artist_mbid,album,album_mbid,track,track_mbid',
    columns: 8,
    date: 0,
    artist: 2,
    album: 4,
    title: 6,
    mbid: 7,
  },
};

const MBID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/iu;

/** The header of a row, as CsvLayout.header spells it. */
export const headerOf = (row: string[]): string => row.map((f) => f.trim().toLowerCase()).join(',');

/**
 * Last.fm scrobbles as the common export tools write them (CSV_LAYOUTS); the layout's header line is
 * passed over wherever it is first; dates in UTC.
 */
export async function* parseLastfmCsv(
  source: ByteReader,
  progress?: { read: number },
  layout: CsvLayout = PLAIN_CSV,
): AsyncGenerator<ParsedEntry> {
  let first = true;
  const fields = layout.header ?? 'artist,album,title,date';
  for await (const row of csvRows(source, progress)) {
    const header = first && row !== null && headerOf(row) === layout.header;
    first = false;
    if (header) continue;
    if (row === null) {
      yield { kind: 'refused', reason: 'the row is not valid CSV' };
      continue;
    }
    if (row.length === 1 && row[0]!.trim() === '') continue;
    if (row.length !== layout.columns) {
      yield { kind: 'refused', reason: `expected ${layout.columns} fields (${fields}), found ${row.length}` };
      continue;
    }
    const artist = row[layout.artist]!.trim();
    const title = row[layout.title]!.trim();
    const album = row[layout.album]!.trim();
    const date = row[layout.date]!.trim();
    if (!artist || !title) {
      yield { kind: 'refused', reason: 'the artist or title is empty' };
      continue;
    }
    const time = parseLastfmTime(date);
    if (time === null) {
      yield { kind: 'refused', reason: `'${date.slice(0, 40)}' is not a date` };
      continue;
    }
    const mbid = layout.mbid === undefined ? '' : row[layout.mbid]!.trim();
    // Written out, not `{ ...listen, recordingMbid: null, … }`: see BatchListen in import-service.ts.
    const listen = {
      at: Math.floor(time.at / 1000) * 1000,
      artist,
      title,
      album: album || null,
      recordingMbid: MBID.test(mbid) ? mbid.toLowerCase() : null,
      device: null,
      type: 'play' as const,
      windowMs: time.windowMs,
    };
    yield { kind: 'listen', listen };
  }
}
