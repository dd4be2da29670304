/**
 * A listen as another service or player reported it (a ListenBrainz submission, a line of an
 * export): names rather than Melon ids, matched to a library track before it becomes a play.
 */
export interface Listen {
  userId: string;
  /** Epoch ms, whole seconds (listens are identified to the second, docs/API.md: Listening history). */
  at: number;
  artist: string;
  title: string;
  album: string | null;
  recordingMbid: string | null;
  /** The player or service it came from (ListenBrainz's media_player or submission_client, Spotify's platform). */
  device: string | null;
  type: 'play' | 'skip';
  /**
   * How uncertain `at` is: the listen began somewhere in [at, at + windowMs). 0 for a time to the
   * second; 60,000 for an export that gives only the minute (Last.fm's "31 Jan 2021 14:03",
   * Spotify's Account data).
   */
  windowMs?: number;
  /** Where it came from: 'listenbrainz-api' or an import's source. */
  source: ListenSource;
}

export type ListenSource = 'listenbrainz-api' | 'listenbrainz' | 'lastfm' | 'spotify';

/** Seconds precision: the de-duplication rule compares listens by the second. */
export const toSecond = (ms: number): number => Math.floor(ms / 1000) * 1000;

/** What a parser yields for each entry of a file: a listen, something to ignore, or a refusal. */
export type ParsedEntry =
  | { kind: 'listen'; listen: Omit<Listen, 'userId' | 'source'> }
  | { kind: 'ignored' }
  | { kind: 'refused'; reason: string };
