import type { ParsedEntry } from '../../domain/listen.js';
import { LISTEN_MINIMUM_TS, readListenBrainzListen } from '../../services/history/parsers/listenbrainz.js';
import { badRequest } from './errors.js';

/** ListenBrainz's published limits (api_tools: MAX_LISTENS_PER_REQUEST, MAX_LISTEN_SIZE, ...). */
export const MAX_LISTENS_PER_REQUEST = 1000;
export const MAX_LISTEN_SIZE = 10240;
export const MAX_LISTEN_PAYLOAD_SIZE = MAX_LISTENS_PER_REQUEST * MAX_LISTEN_SIZE;
export const MAX_TAGS_PER_LISTEN = 50;
export const MAX_TAG_SIZE = 64;
export const MAX_DURATION_LIMIT = 24 * 24 * 60 * 60;
export const MAX_DURATION_MS_LIMIT = MAX_DURATION_LIMIT * 1000;
/** How far ahead of the server's clock a listened_at may be: ListenBrainz allows an hour of skew. */
const LISTENED_AT_ALLOWED_SKEW_S = 60 * 60;

export type ListenType = 'single' | 'playing_now' | 'import';

export interface Submission {
  type: ListenType;
  listens: Array<Extract<ParsedEntry, { kind: 'listen' }>['listen'] & { durationMs: number | null }>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Checks a submit-listens document as ListenBrainz's server does, in its order and with its
 * messages (its tests assert several of them): a JSON object with a `payload` list of 1–1000
 * listens, at most 10240 bytes a listen in aggregate, a known `listen_type`, one listen for
 * `single` and `playing_now`, each listen valid (validateListen). One bad listen refuses the whole
 * document (400), as ListenBrainz answers. `bodyBytes` is the size of the body as sent.
 */
export function readSubmission(document: unknown, bodyBytes: number, nowMs: number): Submission {
  if (!isRecord(document))
    throw badRequest('Invalid JSON document submitted. Top level of JSON document should be a json object.');
  if (!('payload' in document)) throw badRequest('Invalid JSON document submitted.');
  const payload = document.payload;
  if (!Array.isArray(payload))
    throw badRequest('The payload in the JSON document should be a list of listens.');
  if (payload.length === 0) throw badRequest('JSON document does not contain any listens');
  if (payload.length > MAX_LISTENS_PER_REQUEST)
    throw badRequest(
      `Too many listens. You may not submit more than ${MAX_LISTENS_PER_REQUEST} listens at once.`,
    );
  if (bodyBytes > payload.length * MAX_LISTEN_SIZE)
    throw badRequest(
      `JSON document is too large. Each listens may not be larger than ${MAX_LISTEN_SIZE} bytes.`,
    );
  if (!('listen_type' in document)) throw badRequest('Invalid JSON document submitted.');
  const type = document.listen_type;
  if (type !== 'single' && type !== 'playing_now' && type !== 'import')
    throw badRequest('JSON document requires a valid listen_type key.');
  if (type !== 'import' && payload.length > 1)
    throw badRequest(
      'JSON document contains more than listen for a single/playing_now. It should contain only one.',
    );
  const listens = payload.map((item) => {
    const { listen, durationMs } = validateListen(item, type, nowMs);
    const entry = readListenBrainzListen(listen, { playingNow: type === 'playing_now' });
    if (entry.kind !== 'listen')
      throw badRequest(entry.kind === 'refused' ? entry.reason : 'The listen is not a listen of music.');
    return { ...entry.listen, durationMs };
  });
  return { type, listens };
}

/**
 * One listen, checked as ListenBrainz's validate_listen checks it; answers the listen with its
 * values as ListenBrainz reads them (listened_at an integer, names trimmed, empty MBIDs dropped)
 * and its duration in ms (`duration` seconds or `duration_ms`, each `int(float(x))`), or null.
 */
export function validateListen(
  item: unknown,
  type: ListenType,
  nowMs: number,
): { listen: Record<string, unknown>; durationMs: number | null } {
  if (item === null || item === undefined) throw badRequest('Listen is empty and cannot be validated.');
  if (!isRecord(item)) throw badRequest('A listen must be a JSON object.');
  const listen: Record<string, unknown> = { ...item };
  if (type !== 'playing_now') {
    if (!('listened_at' in listen))
      throw badRequest('JSON document must contain the key listened_at at the top level.');
    const at = pythonInt(listen.listened_at);
    if (at === null) throw badRequest('JSON document must contain an int value for listened_at.');
    if (at >= Math.floor(nowMs / 1000) + LISTENED_AT_ALLOWED_SKEW_S)
      throw badRequest('Value for key listened_at is too high.');
    if (at < LISTEN_MINIMUM_TS)
      throw badRequest(
        'Value for key listened_at is too low. listened_at timestamp should be greater than 1033410600 (2002-10-01 00:00:00 UTC).',
      );
    listen.listened_at = at;
    if (!('track_metadata' in listen))
      throw badRequest('JSON document must contain the key track_metadata at the top level.');
    if (Object.keys(listen).length > 2)
      throw badRequest('JSON document may only contain listened_at and track_metadata top level keys');
  } else {
    if ('listened_at' in listen)
      throw badRequest('JSON document must not contain listened_at while submitting playing_now.');
    if (!('track_metadata' in listen))
      throw badRequest('JSON document must contain the key track_metadata at the top level.');
    if (Object.keys(listen).length > 1)
      throw badRequest(
        'JSON document may only contain track_metadata as top level key when submitting playing_now.',
      );
  }
  if (listen.track_metadata === null)
    throw badRequest('JSON document may not have track_metadata with null value.');
  if (!isRecord(listen.track_metadata)) throw badRequest('track_metadata must be a JSON object.');
  const meta: Record<string, unknown> = { ...listen.track_metadata };
  listen.track_metadata = meta;
  basicField(meta, 'track_name', true);
  basicField(meta, 'artist_name', true);
  basicField(meta, 'release_name', false);
  let durationMs: number | null = null;
  if ('additional_info' in meta && isRecord(meta.additional_info)) {
    const info: Record<string, unknown> = { ...meta.additional_info };
    meta.additional_info = info;
    checkTags(info.tags);
    if ('duration' in info && 'duration_ms' in info)
      throw badRequest('JSON document should not contain both duration and duration_ms.');
    const seconds = durationField(info, 'duration', MAX_DURATION_LIMIT);
    const ms = durationField(info, 'duration_ms', MAX_DURATION_MS_LIMIT);
    durationMs = seconds !== null ? seconds * 1000 : ms;
    for (const key of ['release_mbid', 'recording_mbid', 'release_group_mbid', 'track_mbid']) {
      if (!(key in info)) continue;
      if (!info[key]) delete info[key];
      else if (!isUuid(info[key])) throw badRequest(`${key} MBID format invalid.`);
    }
    for (const key of ['artist_mbids', 'work_mbids']) {
      if (!(key in info)) continue;
      const value = info[key];
      if (!value || (Array.isArray(value) && value.length === 0)) {
        delete info[key];
        continue;
      }
      const items: unknown[] = Array.isArray(value) ? value.filter(Boolean) : [value];
      if (!items.every(isUuid)) throw badRequest(`${key} MBID format invalid.`);
      info[key] = items;
    }
  }
  noUnicodeNull(listen);
  return { listen, durationMs };
}

/** Python's int(x) of a JSON value: a number (truncated), or a string of an integer; else null. */
function pythonInt(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) : null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' && /^\s*[+-]?\d+(_\d+)*\s*$/u.test(value))
    return Number(value.replace(/_/gu, '').trim());
  return null;
}

/** Python's int(float(x)): a number, or a string of a decimal number (a scrobbler's "300000", 1222.6). */
function pythonIntOfFloat(value: unknown): number | null {
  if (typeof value === 'boolean') return value ? 1 : 0;
  const number =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/iu.test(value)
        ? Number(value)
        : NaN;
  return Number.isFinite(number) ? Math.trunc(number) : null;
}

function basicField(meta: Record<string, unknown>, key: string, required: boolean): void {
  if (key in meta) {
    const value = meta[key];
    if (typeof value !== 'string') throw badRequest(`track_metadata.${key} must be a single string.`);
    const trimmed = value.trim();
    if (trimmed.length === 0) {
      if (required) throw badRequest(`field track_metadata.${key} is empty.`);
      delete meta[key];
    } else meta[key] = trimmed;
  } else if (required)
    throw badRequest(`JSON document does not contain required field track_metadata.${key}.`);
}

function checkTags(tags: unknown): void {
  if (tags === undefined || tags === null) return;
  const list = Array.isArray(tags) ? tags : typeof tags === 'string' ? [...tags] : [];
  if (list.length > MAX_TAGS_PER_LISTEN)
    throw badRequest(
      `JSON document may not contain more than ${MAX_TAGS_PER_LISTEN} items in track_metadata.additional_info.tags.`,
    );
  for (const tag of list) {
    if (typeof tag === 'string' && tag.length > MAX_TAG_SIZE)
      throw badRequest(
        `JSON document may not contain track_metadata.additional_info.tags longer than ${MAX_TAG_SIZE} characters.`,
      );
  }
}

function durationField(info: Record<string, unknown>, key: string, max: number): number | null {
  if (!(key in info)) return null;
  const value = pythonIntOfFloat(info[key]);
  if (value === null || value <= 0)
    throw badRequest(`Value for ${key} is invalid, should be a positive integer.`);
  if (value > max) throw badRequest(`Value for ${key} is too large, max permitted value is ${max}`);
  info[key] = value;
  return value;
}

/** What Python's uuid.UUID takes: 32 hex digits, hyphens anywhere, in braces or after urn:uuid:. */
function isUuid(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const hex = value
    .trim()
    .replace(/^urn:uuid:/iu, '')
    .replace(/^\{(.*)\}$/u, '$1')
    .replace(/-/gu, '');
  return /^[0-9a-f]{32}$/iu.test(hex);
}

/** Refuses a string with a NUL (Postgres cannot keep one, so ListenBrainz refuses it), in its wording. */
function noUnicodeNull(value: Record<string, unknown>): void {
  for (const item of Object.values(value)) {
    if (isRecord(item)) noUnicodeNull(item);
    else if (Array.isArray(item)) {
      for (const element of item) nulCheck(element);
    } else nulCheck(item);
  }
}

function nulCheck(value: unknown): void {
  if (typeof value === 'string' && value.includes('\0')) throw badRequest(`${value} contains a unicode null`);
}
