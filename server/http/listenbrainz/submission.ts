import type { ParsedEntry } from '../../domain/listen.js';
import { readListenBrainzListen } from '../../services/history/parsers/listenbrainz.js';
import { badRequest } from './errors.js';

/** ListenBrainz's published limits (api_tools: MAX_LISTENS_PER_REQUEST, MAX_LISTEN_SIZE, ...). */
export const MAX_LISTENS_PER_REQUEST = 1000;
export const MAX_LISTEN_SIZE = 10240;
export const MAX_LISTEN_PAYLOAD_SIZE = MAX_LISTENS_PER_REQUEST * MAX_LISTEN_SIZE;
export const MAX_DURATION_MS_LIMIT = 24 * 24 * 60 * 60 * 1000;
/** How far ahead of the server's clock a listened_at may be (Melon's log-play rule). */
const FUTURE_TOLERANCE_S = 5 * 60;

export type ListenType = 'single' | 'playing_now' | 'import';

export interface Submission {
  type: ListenType;
  listens: Array<Extract<ParsedEntry, { kind: 'listen' }>['listen'] & { durationMs: number | null }>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Checks a submit-listens document as ListenBrainz does: a known `listen_type`, a non-empty
 * `payload` array, exactly one listen for `single` and `playing_now`, at most 1000 for `import`,
 * each listen at most 10240 bytes and valid. One bad listen refuses the whole document (400), as
 * ListenBrainz answers.
 */
export function readSubmission(document: unknown, nowMs: number): Submission {
  if (!isRecord(document)) throw badRequest('Invalid JSON document submitted.');
  const type = document.listen_type;
  if (type !== 'single' && type !== 'playing_now' && type !== 'import')
    throw badRequest('JSON document requires a valid listen_type key.');
  const payload = document.payload;
  if (!Array.isArray(payload) || payload.length === 0)
    throw badRequest('JSON document does not contain any listens in payload.');
  if (type !== 'import' && payload.length > 1)
    throw badRequest(`JSON document contains more than one listen for a ${type} submission.`);
  if (payload.length > MAX_LISTENS_PER_REQUEST)
    throw badRequest(
      `Too many listens. You may not submit more than ${MAX_LISTENS_PER_REQUEST} listens at once.`,
    );
  const listens = payload.map((item, i) => {
    const where = `payload[${i}]`;
    if (Buffer.byteLength(JSON.stringify(item)) > MAX_LISTEN_SIZE)
      throw badRequest(
        `JSON document is too large. In aggregate, listens may not exceed ${MAX_LISTEN_SIZE} bytes.`,
      );
    const entry = readListenBrainzListen(item, { playingNow: type === 'playing_now' });
    if (entry.kind !== 'listen')
      throw badRequest(`${where}: ${entry.kind === 'refused' ? entry.reason : 'not a listen'}`);
    if (type !== 'playing_now' && entry.listen.at / 1000 > nowMs / 1000 + FUTURE_TOLERANCE_S)
      throw badRequest(`${where}: listened_at is in the future`);
    return { ...entry.listen, durationMs: durationOf(item, where) };
  });
  return { type, listens };
}

/** `additional_info.duration_ms` (or `duration`, seconds), bounded as ListenBrainz bounds it. */
function durationOf(item: unknown, where: string): number | null {
  const meta = isRecord(item) && isRecord(item.track_metadata) ? item.track_metadata : {};
  const info = isRecord(meta.additional_info) ? meta.additional_info : {};
  const ms =
    info.duration_ms !== undefined
      ? info.duration_ms
      : typeof info.duration === 'number'
        ? info.duration * 1000
        : undefined;
  if (ms === undefined || ms === null) return null;
  if (typeof ms !== 'number' || !Number.isInteger(ms) || ms <= 0 || ms > MAX_DURATION_MS_LIMIT)
    throw badRequest(`${where}: additional_info.duration_ms must be a positive integer of at most 24 days`);
  return ms;
}
