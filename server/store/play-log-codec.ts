import type { PlayLogEntry } from './play-log.js';

/**
 * The first line of the file. Every other line is one compact JSON entry. A future change of the
 * entry format bumps this number, so an old server refuses a file it cannot read instead of
 * silently skipping every line.
 */
export const SCHEMA_VERSION = 1;
export const HEADER = `{"schemaVersion":${SCHEMA_VERSION}}\n`;

/** An entry's line: compact JSON, newline-terminated. */
export function encodeLine(e: PlayLogEntry): string {
  return JSON.stringify(inLineOrder(e)) + '\n';
}

/** The entry a line's text holds, or undefined for a line that is unparseable or of another shape. */
export function decodeLine(text: string): PlayLogEntry | undefined {
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

/** Checks a parsed line's shape; anything else is treated as an unreadable line. */
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
