import { MINUTE_MS, type Clock } from '../clock.js';

/** What one listener is playing now, as a player or a scrobbler said. */
export interface NowPlayingEntry {
  userId: string;
  trackId: string;
  /** The player or scrobbler that said so (Subsonic's `c`, ListenBrainz's `media_player`), or null. */
  client: string | null;
  /** epoch ms */
  startedAt: number;
}

/** How long past a track's length it still counts as playing (a pause, a slow next scrobble). */
const GRACE_MS = 2 * MINUTE_MS;
/** For a track whose length is unknown. */
const UNKNOWN_LENGTH_MS = 10 * MINUTE_MS;

/**
 * "Now playing": one entry per listener, the last track a player announced, never a play (plays are
 * logged only when a player submits them). Kept in memory: it is worth nothing after a restart.
 * Subsonic's `scrobble?submission=false` and ListenBrainz's `playing_now` feed it; Subsonic's
 * `getNowPlaying` and the settings page read it.
 */
export class NowPlayingService {
  private readonly entries = new Map<string, NowPlayingEntry & { untilMs: number }>();

  constructor(
    private readonly clock: Clock,
    /** Told of every announcement (the forwarding of plays sends it on as `playing_now`). */
    private readonly onAnnounce?: (userId: string, trackId: string, client: string | null) => void,
  ) {}

  /**
   * `durationMs` (the track's length, when known) decides when the entry lapses, a grace after it;
   * `exact`: the player said how long it plays (ListenBrainz's duration), and it lapses then.
   */
  announce(
    userId: string,
    trackId: string,
    client: string | null,
    durationMs: number | null,
    exact = false,
  ): void {
    const now = this.clock.now();
    const known = durationMs !== null && durationMs > 0;
    const until = now + (known ? durationMs : UNKNOWN_LENGTH_MS) + (known && exact ? 0 : GRACE_MS);
    this.entries.set(userId, { userId, trackId, client, startedAt: now, untilMs: until });
    this.onAnnounce?.(userId, trackId, client);
  }

  /** Ends a listener's entry (e.g. when the track was submitted as played). */
  clear(userId: string, trackId?: string): void {
    const entry = this.entries.get(userId);
    if (entry && (trackId === undefined || entry.trackId === trackId)) this.entries.delete(userId);
  }

  /** Everyone playing now, the latest start first. */
  list(): NowPlayingEntry[] {
    const now = this.clock.now();
    const current: NowPlayingEntry[] = [];
    for (const [userId, { untilMs, ...entry }] of this.entries) {
      if (untilMs <= now) this.entries.delete(userId);
      else current.push(entry);
    }
    return current.sort((a, b) => b.startedAt - a.startedAt);
  }
}
