import type { ParsedEntry } from '../../../domain/listen.js';
import { parseIsoDate } from '../../../domain/dates.js';
import { jsonArrayItems, type ReadProgress } from './streams.js';

/** Shorter than this is a skip, as Spotify counts a stream (30 s). */
export const SPOTIFY_MIN_PLAY_MS = 30_000;

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

/**
 * One entry of Spotify's Extended Streaming History (`Streaming_History_Audio_*.json`). `ts` is when
 * the stream ended, so the listen starts `ms_played` before it. Under 30 s or `skipped: true` is a
 * skip; podcast episodes and audiobooks (no track name) are ignored; the device is the `platform`.
 */
export function readSpotifyEntry(item: unknown): ParsedEntry {
  if (typeof item !== 'object' || item === null || Array.isArray(item))
    return { kind: 'refused', reason: 'an entry must be a JSON object' };
  const e = item as Record<string, unknown>;
  if (text(e.episode_name) || text(e.spotify_episode_uri) || text(e.audiobook_title))
    return { kind: 'ignored' };
  const title = text(e.master_metadata_track_name);
  const artist = text(e.master_metadata_album_artist_name);
  if (!title && !artist) return { kind: 'ignored' };
  if (!title || !artist) return { kind: 'refused', reason: 'the track or artist name is missing' };
  const ended = typeof e.ts === 'string' ? parseIsoDate(e.ts) : null;
  if (ended === null) return { kind: 'refused', reason: 'ts is missing or not a date' };
  const played = typeof e.ms_played === 'number' && e.ms_played >= 0 ? e.ms_played : null;
  if (played === null) return { kind: 'refused', reason: 'ms_played is missing' };
  const skip = played < SPOTIFY_MIN_PLAY_MS || e.skipped === true;
  const platform = text(e.platform);
  return {
    kind: 'listen',
    listen: {
      at: Math.floor((ended - played) / 1000) * 1000,
      artist,
      title,
      album: text(e.master_metadata_album_album_name),
      recordingMbid: null,
      device: platform ? platform.slice(0, 128) : null,
      type: skip ? 'skip' : 'play',
    },
  };
}

export async function* parseSpotifyHistory(
  path: string,
  progress?: ReadProgress,
): AsyncGenerator<ParsedEntry> {
  for await (const item of jsonArrayItems(path, progress)) {
    if ('tooLong' in item) {
      yield { kind: 'refused', reason: 'the entry is too long' };
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(item.text);
    } catch {
      yield { kind: 'refused', reason: 'the entry is not valid JSON' };
      continue;
    }
    yield readSpotifyEntry(value);
  }
}
