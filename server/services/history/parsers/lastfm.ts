import type { ParsedEntry } from '../../../domain/listen.js';
import { parseIsoDate } from '../../../domain/dates.js';
import { fileLines, MAX_ENTRY_CHARS, type ReadProgress } from './streams.js';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
/** "31 Jan 2021 14:03" (lastfm-to-csv and its kin), in UTC. */
const LASTFM_DATE = /^(\d{1,2}) ([A-Za-z]{3})[a-z]* (\d{4}),? (\d{1,2}):(\d{2})(?::(\d{2}))?$/u;

/** A scrobble's date: the export tools' "31 Jan 2021 14:03" (UTC), Unix seconds, or ISO 8601 (UTC when no offset). */
export function parseLastfmDate(text: string): number | null {
  const value = text.trim();
  if (/^\d{9,11}$/u.test(value)) return Number(value) * 1000;
  const m = LASTFM_DATE.exec(value);
  if (m) {
    const month = MONTHS.indexOf(m[2]!.toLowerCase());
    if (month < 0) return null;
    const ms = Date.UTC(Number(m[3]), month, Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0));
    return Number.isNaN(ms) || new Date(ms).getUTCDate() !== Number(m[1]) ? null : ms;
  }
  if (/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2})?$/u.test(value)) return parseIsoDate(value + 'Z');
  return parseIsoDate(value);
}

/** Splits CSV rows (RFC 4180: quoted fields, doubled quotes, fields across lines). */
export async function* csvRows(path: string, progress?: ReadProgress): AsyncGenerator<string[] | null> {
  let pending = '';
  for await (const line of fileLines(path, progress)) {
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

function splitRow(text: string): string[] | 'open' {
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
 * Last.fm scrobbles as the common export tools write them: `artist,album,title,date` rows, with or
 * without that header line; dates in UTC.
 */
export async function* parseLastfmCsv(path: string, progress?: ReadProgress): AsyncGenerator<ParsedEntry> {
  let first = true;
  for await (const row of csvRows(path, progress)) {
    const header =
      first && row !== null && row.map((f) => f.trim().toLowerCase()).join(',') === 'artist,album,title,date';
    first = false;
    if (header) continue;
    if (row === null) {
      yield { kind: 'refused', reason: 'the row is not valid CSV' };
      continue;
    }
    if (row.length === 1 && row[0]!.trim() === '') continue;
    if (row.length !== 4) {
      yield { kind: 'refused', reason: `expected 4 fields (artist,album,title,date), found ${row.length}` };
      continue;
    }
    const [artist, album, title, date] = row.map((f) => f.trim()) as [string, string, string, string];
    if (!artist || !title) {
      yield { kind: 'refused', reason: 'the artist or title is empty' };
      continue;
    }
    const at = parseLastfmDate(date);
    if (at === null) {
      yield { kind: 'refused', reason: `'${date.slice(0, 40)}' is not a date` };
      continue;
    }
    // Written out, not `{ ...listen, recordingMbid: null, … }`: see BatchListen in import-service.ts.
    const listen = {
      at: Math.floor(at / 1000) * 1000,
      artist,
      title,
      album: album || null,
      recordingMbid: null,
      device: null,
      type: 'play' as const,
    };
    yield { kind: 'listen', listen };
  }
}
