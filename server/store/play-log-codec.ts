import type { PlaySnapshot } from '../domain/play.js';
import type { PlayLogEntry } from '../domain/play.js';

/**
 * The first line of the file. A change of the line format bumps this number, so an old server
 * refuses a file it cannot read instead of silently skipping every line; this server reads version
 * 1 too, and rewrites such a log in version 2 when it opens it (see play-log-migration.ts).
 *
 * Version 2 (every line is JSON, so `jq` and `grep` read it):
 * - a snapshot line, `{"snapshot":N,"trackId":…,"albumId":…,"artistIds":[…],"genres":[…],
 *   "durationMs":…,"trackName":…,"albumName":…,"artistNames":[…]}`, defines snapshot N (0, 1, 2, …
 *   in file order): what a track was when it was played. It is written just before the first log
 *   that refers to it, so most logs of a track share one.
 * - a log line, `[at,"userId",snapshot,"device" or null,"p"|"s"|"P"|"S","id"]`: a play (p) or a
 *   skip (s), upper case when the client gave the time.
 *
 * Version 1 held one JSON object per line with the whole snapshot in each (≈315 bytes a log).
 */
export const SCHEMA_VERSION = 2;
export const V1_SCHEMA_VERSION = 1;
export const HEADER = `{"schemaVersion":${SCHEMA_VERSION}}\n`;

/** A log line's own fields, without the snapshot. */
export interface PlayLine {
  at: number;
  userId: string;
  snapshot: number;
  device: string | null;
  type: 'play' | 'skip';
  explicitAt: boolean;
  id: string;
}

/** A snapshot's canonical text: the same snapshot always gives the same text, the key it is found by. */
export function snapshotText(e: PlaySnapshot): string {
  return JSON.stringify({
    trackId: e.trackId,
    albumId: e.albumId,
    artistIds: e.artistIds,
    genres: e.genres,
    durationMs: e.durationMs,
    trackName: e.trackName,
    albumName: e.albumName,
    artistNames: e.artistNames,
  });
}

/** The line defining snapshot `n`, whose canonical text is `text`. */
export function snapshotLine(n: number, text: string): string {
  return `{"snapshot":${n},${text.slice(1)}\n`;
}

const TYPE_CODES = { play: 'p', skip: 's' } as const;

export function playLine(e: PlayLogEntry, snapshot: number): string {
  const type = e.explicitAt ? TYPE_CODES[e.type].toUpperCase() : TYPE_CODES[e.type];
  const device = e.device === null ? 'null' : JSON.stringify(e.device);
  return `[${e.at},${JSON.stringify(e.userId)},${snapshot},${device},"${type}",${JSON.stringify(e.id)}]\n`;
}

/** A snapshot line's number and snapshot; undefined for a line of another shape. */
export function decodeSnapshotLine(text: string): { n: number; snapshot: PlaySnapshot } | undefined {
  const value = tryParse(text);
  const n = (value as { snapshot?: unknown } | null)?.snapshot;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) return undefined;
  const snapshot = toSnapshot(value);
  return snapshot && { n, snapshot };
}

/** The snapshot a canonical text (see `snapshotText`) holds; undefined for text of another shape. */
export function decodeSnapshotText(text: string): PlaySnapshot | undefined {
  return toSnapshot(tryParse(text));
}

function toSnapshot(value: unknown): PlaySnapshot | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const e = value as Record<string, unknown>;
  // JSON has no NaN: a non-finite duration is written as null.
  const durationMs = e.durationMs === null ? NaN : e.durationMs;
  if (
    !isString(e.trackId) ||
    !(e.albumId === null || isString(e.albumId)) ||
    !isStringArray(e.artistIds) ||
    !isStringArray(e.genres) ||
    typeof durationMs !== 'number' ||
    !(e.trackName === null || isString(e.trackName)) ||
    !(e.albumName === null || isString(e.albumName)) ||
    !isStringArray(e.artistNames)
  ) {
    return undefined;
  }
  return {
    trackId: e.trackId,
    albumId: e.albumId,
    artistIds: e.artistIds,
    genres: e.genres,
    durationMs,
    trackName: e.trackName,
    albumName: e.albumName,
    artistNames: e.artistNames,
  };
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
const TYPES: Record<number, { type: 'play' | 'skip'; explicitAt: boolean }> = {
  0x70: { type: 'play', explicitAt: false },
  0x73: { type: 'skip', explicitAt: false },
  0x50: { type: 'play', explicitAt: true },
  0x53: { type: 'skip', explicitAt: true },
};

/**
 * Parses a log line from `buf[start, end)` (the line without its newline) by hand: at a million
 * lines, JSON.parse and the objects it makes cost seconds of a start. Lines it does not expect (a
 * string with escapes, a time with a fraction) go through JSON.parse instead.
 */
export function decodePlayLine(buf: Buffer, start: number, end: number): PlayLine | undefined {
  const line = parseFast(buf, start, end);
  return line ?? decodePlayLineSlowly(buf.toString('utf8', start, end));
}

// The hand parser's cursor: module state rather than closures, so a line costs no allocation
// beyond its strings.
let src: Buffer = Buffer.alloc(0);
let pos = 0;
let limit = 0;

function parseFast(buf: Buffer, start: number, end: number): PlayLine | undefined {
  src = buf;
  pos = start + 1;
  limit = end;
  if (buf[start] !== 0x5b || buf[end - 1] !== 0x5d) return undefined;
  const at = readInt();
  if (Number.isNaN(at) || buf[pos++] !== COMMA) return undefined;
  const userId = readString();
  if (userId === undefined || buf[pos++] !== COMMA) return undefined;
  const snapshot = readInt();
  if (Number.isNaN(snapshot) || snapshot < 0 || buf[pos++] !== COMMA) return undefined;
  let device: string | null;
  if (buf[pos] === 0x6e) {
    if (buf[pos + 1] !== 0x75 || buf[pos + 2] !== 0x6c || buf[pos + 3] !== 0x6c) return undefined; // null
    device = null;
    pos += 4;
  } else {
    const d = readString();
    if (d === undefined) return undefined;
    device = d;
  }
  if (buf[pos++] !== COMMA || buf[pos++] !== QUOTE || buf[pos + 1] !== QUOTE) return undefined;
  const type = TYPES[buf[pos]!];
  pos += 2;
  if (!type || buf[pos++] !== COMMA) return undefined;
  const id = readString();
  if (id === undefined || pos !== end - 1) return undefined;
  return { at, userId, snapshot, device, type: type.type, explicitAt: type.explicitAt, id };
}

/** An integer of up to 15 digits (exact in a double); NaN for anything else. */
function readInt(): number {
  const negative = src[pos] === MINUS;
  if (negative) pos += 1;
  const from = pos;
  let value = 0;
  while (pos < limit) {
    const c = src[pos]!;
    if (c < ZERO || c > NINE) break;
    value = value * 10 + c - ZERO;
    pos += 1;
  }
  if (pos === from || pos - from > 15) return NaN;
  return negative ? -value : value;
}

/** A string without escapes; undefined for anything else. */
function readString(): string | undefined {
  if (src[pos] !== QUOTE) return undefined;
  const from = ++pos;
  let ascii = true;
  for (; pos < limit; pos += 1) {
    const c = src[pos]!;
    if (c === QUOTE) break;
    if (c === BACKSLASH) return undefined;
    if (c >= 0x80) ascii = false;
  }
  if (pos >= limit) return undefined;
  pos += 1;
  return src.toString(ascii ? 'latin1' : 'utf8', from, pos - 1);
}

/** A log line read with JSON.parse: any line `decodePlayLine` reads, slowly. */
export function decodePlayLineSlowly(text: string): PlayLine | undefined {
  const v = tryParse(text);
  if (!Array.isArray(v) || v.length !== 6) return undefined;
  const [at, userId, snapshot, device, code, id] = v as unknown[];
  const type = typeof code === 'string' && code.length === 1 ? TYPES[code.charCodeAt(0)] : undefined;
  if (
    typeof at !== 'number' ||
    !Number.isFinite(at) ||
    !isString(userId) ||
    typeof snapshot !== 'number' ||
    !Number.isInteger(snapshot) ||
    snapshot < 0 ||
    !(device === null || isString(device)) ||
    !type ||
    !isString(id)
  ) {
    return undefined;
  }
  return { at, userId, snapshot, device, type: type.type, explicitAt: type.explicitAt, id };
}

/** The entry a log line and its snapshot make. The entry shares the snapshot's arrays. */
export function entryOf(line: PlayLine, s: PlaySnapshot): PlayLogEntry {
  return {
    id: line.id,
    userId: line.userId,
    trackId: s.trackId,
    albumId: s.albumId,
    artistIds: s.artistIds,
    genres: s.genres,
    durationMs: s.durationMs,
    device: line.device,
    type: line.type,
    at: line.at,
    explicitAt: line.explicitAt,
    trackName: s.trackName,
    albumName: s.albumName,
    artistNames: s.artistNames,
  };
}

// ---- version 1: one JSON object per line, read to migrate an old log ----

/** An entry's version-1 line: compact JSON, newline-terminated (tests write old logs with it). */
export function encodeV1Line(e: PlayLogEntry): string {
  return JSON.stringify(inLineOrder(e)) + '\n';
}

/** The entry a version-1 line's text holds, or undefined for a line that is unparseable or of another shape. */
export function decodeV1Line(text: string): PlayLogEntry | undefined {
  return toEntry(tryParse(text));
}

export function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The entry's fields in the order lines hold them, and nothing else: a line written never carries
 * stray properties, and an entry read never keeps any.
 */
function inLineOrder(e: PlayLogEntry): PlayLogEntry {
  return {
    id: e.id,
    userId: e.userId,
    trackId: e.trackId,
    albumId: e.albumId,
    artistIds: e.artistIds,
    genres: e.genres,
    durationMs: e.durationMs,
    device: e.device,
    type: e.type,
    at: e.at,
    explicitAt: e.explicitAt,
    trackName: e.trackName,
    albumName: e.albumName,
    artistNames: e.artistNames,
  };
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);

/** Checks a parsed version-1 line's shape; anything else is treated as an unreadable line. */
function toEntry(value: unknown): PlayLogEntry | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const e = value as Record<string, unknown>;
  if (
    !isString(e.id) ||
    !isString(e.userId) ||
    !isString(e.trackId) ||
    !(e.albumId === null || isString(e.albumId)) ||
    !isStringArray(e.artistIds) ||
    !isStringArray(e.genres) ||
    typeof e.durationMs !== 'number' ||
    !(e.device === null || isString(e.device)) ||
    (e.type !== 'play' && e.type !== 'skip') ||
    typeof e.at !== 'number' ||
    !Number.isFinite(e.at)
  ) {
    return undefined;
  }
  // The fields a line may lack or hold in another form take their defaults. `e` is this
  // function's own parse, so it is set in place rather than copied twice.
  e.explicitAt = e.explicitAt === true;
  e.trackName = isString(e.trackName) ? e.trackName : null;
  e.albumName = isString(e.albumName) ? e.albumName : null;
  if (!isStringArray(e.artistNames)) e.artistNames = [];
  return inLineOrder(e as unknown as PlayLogEntry);
}
