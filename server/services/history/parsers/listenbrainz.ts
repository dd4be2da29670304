import type { ParsedEntry } from '../../../domain/listen.js';
import { parseIsoDate } from '../../../domain/dates.js';
import { byteJsonArrayItems, byteLines, MAX_ENTRY_CHARS, type ByteReader } from './streams.js';

/** ListenBrainz refuses listens before this (LISTEN_MINIMUM_TS, 1 October 2002): so do imports. */
export const LISTEN_MINIMUM_TS = 1033430400;
const MBID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/iu;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const nonEmpty = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

/**
 * One ListenBrainz listen (the payload item of submit-listens, a line or element of an export) as a
 * listen, or why it is refused. `listened_at` is Unix seconds (an export may also carry ISO 8601);
 * `playingNow` listens carry none. The device is the `media_player`, else the `submission_client`.
 */
export function readListenBrainzListen(
  item: unknown,
  options: { playingNow?: boolean } = {},
): ParsedEntry | { kind: 'refused'; reason: string } {
  if (!isRecord(item)) return { kind: 'refused', reason: 'a listen must be a JSON object' };
  const meta = item.track_metadata;
  if (!isRecord(meta)) return { kind: 'refused', reason: 'track_metadata is missing' };
  const artist = nonEmpty(meta.artist_name);
  const title = nonEmpty(meta.track_name);
  if (!artist) return { kind: 'refused', reason: 'track_metadata.artist_name is missing or empty' };
  if (!title) return { kind: 'refused', reason: 'track_metadata.track_name is missing or empty' };
  let at = 0;
  if (options.playingNow) {
    if (item.listened_at !== undefined)
      return { kind: 'refused', reason: 'playing_now listens must not have listened_at' };
  } else {
    const raw = item.listened_at;
    // Unix seconds, also as a string of digits (ListenBrainz takes int(x)), or ISO 8601 in an export.
    const seconds =
      typeof raw === 'number'
        ? raw
        : typeof raw === 'string'
          ? /^\s*\d+\s*$/u.test(raw)
            ? Number(raw)
            : (parseIsoDate(raw) ?? NaN) / 1000
          : NaN;
    if (!Number.isInteger(Math.floor(seconds)) || !Number.isFinite(seconds))
      return { kind: 'refused', reason: 'listened_at is missing or not a timestamp' };
    if (seconds < LISTEN_MINIMUM_TS)
      return { kind: 'refused', reason: `listened_at is before ${LISTEN_MINIMUM_TS} (2002-10-01)` };
    at = Math.floor(seconds) * 1000;
  }
  const info = isRecord(meta.additional_info) ? meta.additional_info : {};
  const mapping = isRecord(meta.mbid_mapping) ? meta.mbid_mapping : {};
  const mbid = nonEmpty(info.recording_mbid) ?? nonEmpty(mapping.recording_mbid);
  const device =
    nonEmpty(info.media_player) ?? nonEmpty(info.submission_client) ?? nonEmpty(info.listening_from);
  return {
    kind: 'listen',
    listen: {
      at,
      artist,
      title,
      album: nonEmpty(meta.release_name),
      recordingMbid: mbid && MBID.test(mbid) ? mbid.toLowerCase() : null,
      device: device ? device.slice(0, 128) : null,
      type: 'play',
    },
  };
}

/** A ListenBrainz export's listens as JSON lines (one listen a line: `listens/<year>/<month>.jsonl`). */
export async function* parseListenBrainzLines(
  source: ByteReader,
  progress?: { read: number },
): AsyncGenerator<ParsedEntry> {
  for await (const line of byteLines(source, progress)) {
    if (line?.trim() === '') continue;
    yield fromText(line === null || line.length > MAX_ENTRY_CHARS ? null : line);
  }
}

/** ListenBrainz listens as one JSON array (the export of earlier years, the API's listens). */
export async function* parseListenBrainzArray(
  source: ByteReader,
  progress?: { read: number },
): AsyncGenerator<ParsedEntry> {
  for await (const item of byteJsonArrayItems(source, progress))
    yield fromText('tooLong' in item ? null : item.text);
}

function fromText(text: string | null): ParsedEntry {
  if (text === null) return { kind: 'refused', reason: 'the entry is too long' };
  let item: unknown;
  try {
    item = JSON.parse(text);
  } catch {
    return { kind: 'refused', reason: 'the entry is not valid JSON' };
  }
  return readListenBrainzListen(item);
}
