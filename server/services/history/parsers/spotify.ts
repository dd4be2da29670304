import { toSecond, type Listen, type ParsedEntry } from '../../../domain/listen.js';
import { parseIsoDate } from '../../../domain/dates.js';
import { byteJsonArrayItems, type ByteReader } from './streams.js';

/** Shorter than this may be a skip, as Spotify counts a stream (30 s). */
export const SPOTIFY_MIN_PLAY_MS = 30_000;

/**
 * The `reason_end`s of a stream the listener cut short (null: Spotify did not say), as
 * ListenBrainz's own Spotify importer lists them. A short stream that ended for another reason
 * (`trackdone`: the track was that short) is a play.
 */
const SKIP_REASONS: ReadonlySet<string | null> = new Set([
  null,
  'fwdbtn',
  'backbtn',
  'clickrow',
  'clickside',
  'endplay',
  'playbtn',
  'remote',
  'logout',
  'popup',
  'trackerror',
  'unexpected-exit',
  'unexpected-exit-while-paused',
  'unknown',
]);

export interface SpotifyOptions {
  /** Keep streams played in a private session (`incognito_mode: true`); left out by default. */
  keepIncognito?: boolean;
}

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

/** `YYYY-MM-DD HH:MM`, the Account data's `endTime`, in UTC. */
const ACCOUNT_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/u;

/**
 * One entry of Spotify's streaming history: Extended (`Streaming_History_Audio_*.json`,
 * `endsong_*.json`: `ts`, `ms_played`, `master_metadata_*`) or Account data
 * (`StreamingHistory_music_*.json`: `endTime`, `artistName`, `trackName`, `msPlayed`). The time
 * given is when the stream ended, so the listen starts the time played before it. A skip is a
 * stream under 30 s that the listener cut short (`skipped`, or a `reason_end` of SKIP_REASONS);
 * the Account data says neither, so there any stream under 30 s is a skip. Podcast episodes and
 * audiobooks are ignored, and so are private sessions unless asked for; the device is the `platform`.
 */
export function readSpotifyEntry(item: unknown, options: SpotifyOptions = {}): ParsedEntry {
  if (typeof item !== 'object' || item === null || Array.isArray(item))
    return { kind: 'refused', reason: 'an entry must be a JSON object' };
  const e = item as Record<string, unknown>;
  if ('endTime' in e && !('ts' in e)) return readAccountEntry(e);
  if (text(e.episode_name) || text(e.spotify_episode_uri) || text(e.audiobook_title))
    return { kind: 'ignored' };
  if (e.incognito_mode === true && !options.keepIncognito) return { kind: 'ignored' };
  const title = text(e.master_metadata_track_name);
  const artist = text(e.master_metadata_album_artist_name);
  if (!title && !artist) return { kind: 'ignored' };
  if (!title || !artist) return { kind: 'refused', reason: 'the track or artist name is missing' };
  const ended = typeof e.ts === 'string' ? parseIsoDate(e.ts) : null;
  if (ended === null) return { kind: 'refused', reason: 'ts is missing or not a date' };
  const played = typeof e.ms_played === 'number' && e.ms_played >= 0 ? e.ms_played : null;
  if (played === null) return { kind: 'refused', reason: 'ms_played is missing' };
  const cutShort = e.skipped === true || ('reason_end' in e && SKIP_REASONS.has(text(e.reason_end) ?? null));
  const platform = text(e.platform);
  return stream(ended, played, cutShort, {
    artist,
    title,
    album: text(e.master_metadata_album_album_name),
    device: platform ? platform.slice(0, 128) : null,
  });
}

function readAccountEntry(e: Record<string, unknown>): ParsedEntry {
  if (text(e.podcastName) || text(e.episodeName)) return { kind: 'ignored' };
  const title = text(e.trackName);
  const artist = text(e.artistName);
  if (!title || !artist) return { kind: 'refused', reason: 'trackName or artistName is missing' };
  const end = text(e.endTime);
  const ended = end && ACCOUNT_TIME.test(end) ? parseIsoDate(`${end.replace(' ', 'T')}:00Z`) : null;
  if (ended === null) return { kind: 'refused', reason: 'endTime is missing or not a date' };
  const played = typeof e.msPlayed === 'number' && e.msPlayed >= 0 ? e.msPlayed : null;
  if (played === null) return { kind: 'refused', reason: 'msPlayed is missing' };
  // The account export says nothing of how a stream ended: a short one counts as cut short.
  return stream(ended, played, true, {
    artist,
    title,
    album: null,
    device: null,
    // endTime is to the minute: the stream began in the minute after `at`.
    windowMs: 60_000,
  });
}

/**
 * A stream as a listen: it began `played` ms before it `ended` (to the second); a stream shorter
 * than Spotify counts that the listener cut short is a skip.
 */
function stream(
  ended: number,
  played: number,
  cutShort: boolean,
  names: Pick<Listen, 'artist' | 'title' | 'album' | 'device' | 'windowMs'>,
): ParsedEntry {
  const type = played < SPOTIFY_MIN_PLAY_MS && cutShort ? 'skip' : 'play';
  return {
    kind: 'listen',
    listen: { at: toSecond(ended - played), recordingMbid: null, type, ...names },
  };
}

/** A Spotify streaming history file: one JSON array of entries (see readSpotifyEntry). */
export async function* parseSpotifyHistory(
  source: ByteReader,
  progress?: { read: number },
  options: SpotifyOptions = {},
): AsyncGenerator<ParsedEntry> {
  for await (const item of byteJsonArrayItems(source, progress)) {
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
    yield readSpotifyEntry(value, options);
  }
}
