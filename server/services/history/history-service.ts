import type { LibraryIndex, TrackRecord } from '../../domain/library.js';
import type { OutgoingListen } from '../../domain/forwarding.js';
import type { Listen } from '../../domain/listen.js';
import type { PlayLogEntry } from '../../domain/play.js';
import type { Logger } from '../../logger.js';
import type { UnmatchedListensStore } from '../../domain/ports.js';
import type { ListenSink } from '../forwarding/forwarding-service.js';
import { outgoingOfEntry, outgoingOfListen } from '../forwarding/outgoing.js';
import type { NowPlayingService } from '../now-playing.js';
import type { ListenLog, MatchedListen } from './listen-log.js';
import { ListenKeys, pairHash } from './listen-keys.js';
import { foldCredit, normaliseAlbum, normaliseArtist, normaliseTitle } from './normalise.js';
import { inBackground } from '../steps.js';
import { TrackMatcher } from './track-matcher.js';

/** Unmatched listens of one artist and album. */
export interface MissingGroup {
  artist: string;
  album: string | null;
  listens: number;
}

/** A matcher being made for the library of `tracks`: undefined if the library changed meanwhile. */
interface Building {
  tracks: readonly TrackRecord[];
  made: Promise<TrackMatcher | undefined>;
}

/** The most artist-and-album groups told apart when unmatched listens are grouped. */
const MAX_GROUPS = 100_000;

/** What became of a batch of listens. */
export interface RecordOutcome {
  matched: number;
  unmatched: number;
  duplicates: number;
}

/**
 * Listens from outside Melon (docs/API.md, Listening history): each is matched to a library track
 * and logged as a play or skip at its time, at most once per (user, track, second); a listen that
 * matches nothing is kept as an unmatched listen and tried again after every scan.
 */
export class HistoryService {
  private matcher: { tracks: readonly TrackRecord[]; matcher: TrackMatcher } | null = null;
  /** The matcher being made in the background, which every listen meanwhile waits for. */
  private building: Building | null = null;
  /** Keys of the unmatched listens kept (user + names, second), so a re-import adds none twice. */
  private unmatchedKeys: Promise<ListenKeys> | null = null;
  private sweeping: Promise<void> | null = null;

  constructor(
    private readonly listenLog: ListenLog,
    private readonly unmatched: UnmatchedListensStore,
    private readonly library: () => Readonly<LibraryIndex>,
    private readonly nowPlaying: NowPlayingService,
    private readonly logger: Logger,
    /** Where the plays a scrobbler submits are forwarded (imports and re-matches are not). */
    private readonly forwarding?: ListenSink,
  ) {}

  /** Matches and records listens; resolves once the plays and unmatched listens are durable. */
  async record(listens: readonly Listen[]): Promise<RecordOutcome> {
    const matcher = await this.currentMatcher();
    const matched: MatchedListen[] = [];
    const unmatched: Listen[] = [];
    for (const listen of listens) {
      const track = matcher.match(listen);
      if (track) matched.push(new Matched(listen, track));
      else unmatched.push(listen);
    }
    const { duplicates, entries } = await this.listenLog.record(matched);
    const scrobbled = listens[0]?.source === 'listenbrainz-api';
    // A scrobbled play ends the "playing now" that announced it.
    if (scrobbled) {
      for (const listen of matched) this.nowPlaying.clear(listen.userId, listen.track.id);
    }
    const keys = await this.unmatchedKeySet();
    const fresh = unmatched.filter((listen) => keys.add(listen.userId, unmatchedKey(listen), listen.at));
    await this.unmatched.append(fresh);
    if (scrobbled && this.forwarding) await this.forward(this.forwarding, matched, entries, fresh);
    return {
      matched: matched.length - duplicates,
      unmatched: fresh.length,
      duplicates: duplicates + unmatched.length - fresh.length,
    };
  }

  /** A scrobbler's new plays, in the library or not, go on to the member's forwarding. */
  private async forward(
    sink: ListenSink,
    matched: readonly MatchedListen[],
    entries: readonly PlayLogEntry[],
    unmatched: readonly Listen[],
  ): Promise<void> {
    const tracks = new Map(matched.map((listen) => [listen.track.id, listen.track]));
    const byUser = new Map<string, OutgoingListen[]>();
    const add = (userId: string, listen: OutgoingListen) => {
      const list = byUser.get(userId);
      if (list) list.push(listen);
      else byUser.set(userId, [listen]);
    };
    for (const entry of entries)
      if (entry.type === 'play') add(entry.userId, outgoingOfEntry(entry, tracks.get(entry.trackId)));
    for (const listen of unmatched) if (listen.type === 'play') add(listen.userId, outgoingOfListen(listen));
    for (const [userId, listens] of byUser) await sink.played(userId, listens);
  }

  /**
   * A user's unmatched listens grouped by artist and album, the most listened first (at most
   * `limit` groups): what is missing from the library. Read from the file as a stream; the groups
   * of names folded alike are one, shown as first written; at most MAX_GROUPS are told apart.
   */
  async missing(userId: string, limit: number): Promise<{ listens: number; groups: MissingGroup[] }> {
    const groups = new Map<string, MissingGroup>();
    let listens = 0;
    for await (const listen of this.unmatched.read()) {
      if (listen.userId !== userId) continue;
      listens += 1;
      const key = `${foldCredit(listen.artist)}\u0000${listen.album ? normaliseAlbum(listen.album) : ''}`;
      const group = groups.get(key);
      if (group) group.listens += 1;
      else if (groups.size < MAX_GROUPS)
        groups.set(key, { artist: listen.artist, album: listen.album, listens: 1 });
    }
    const sorted = [...groups.values()].sort(
      (a, b) =>
        b.listens - a.listens ||
        a.artist.localeCompare(b.artist) ||
        (a.album ?? '').localeCompare(b.album ?? ''),
    );
    return { listens, groups: sorted.slice(0, limit) };
  }

  /** Room for about `listens` more plays of a user, made at once (ListenLog.reserve). */
  reserve(userId: string, listens: number): void {
    this.listenLog.reserve(userId, listens);
  }

  /** After an import: drops what its reservation left unused. */
  settle(userId: string): void {
    this.listenLog.settle(userId);
  }

  /** A scrobbler's "playing now": shown as now playing when it matches a track, never a play. */
  async playingNow(listen: Omit<Listen, 'at' | 'type'>, durationMs: number | null): Promise<boolean> {
    const track = (await this.currentMatcher()).match(listen);
    if (!track) {
      this.forwarding?.playingNow(listen.userId, outgoingOfListen(listen));
      return false;
    }
    // A duration the scrobbler gave ends it then, as ListenBrainz expires playing_now.
    if (durationMs !== null)
      this.nowPlaying.announce(listen.userId, track.id, listen.device, durationMs, true);
    else this.nowPlaying.announce(listen.userId, track.id, listen.device, track.durationMs);
    return true;
  }

  /**
   * Tries every unmatched listen against the library again (after a scan): those that match now
   * become plays. One sweep at a time; a call during a sweep waits for it and runs again.
   */
  async rematch(): Promise<{ matched: number; kept: number }> {
    while (this.sweeping) await this.sweeping;
    let outcome = { matched: 0, kept: 0 };
    this.sweeping = (async () => {
      const { taken, kept } = await this.unmatched.sweep(async (batch) => {
        // Made for the first batch: after most scans no listen waits, and the library's matcher
        // would be made for nothing at the end of each (the next scrobble makes it when needed).
        const matcher = await this.currentMatcher();
        const found = batch.map((listen) => matcher.match(listen));
        const matched = batch.flatMap((listen, i) => (found[i] ? [new Matched(listen, found[i])] : []));
        await this.listenLog.record(matched);
        return found.map((track) => track !== undefined);
      });
      // The keys of listens that left the file go with them.
      this.unmatchedKeys = null;
      outcome = { matched: taken, kept };
    })().finally(() => {
      this.sweeping = null;
    });
    await this.sweeping;
    if (outcome.matched > 0) this.logger.info('unmatched listens matched after a scan', outcome);
    return outcome;
  }

  /** Resolves once no sweep of the unmatched listens is running (tests). */
  async idle(): Promise<void> {
    while (this.sweeping) await this.sweeping;
  }

  /**
   * After a scan: a matcher made for the library before it is let go (it holds that library's
   * records), and when one was in use (a scrobbler sends listens) the new library's is made ahead,
   * in steps, so that the next listen does not wait for it. A household without scrobblers never
   * makes one.
   */
  prepareMatcher(): void {
    const library = this.library();
    if (this.matcher === null || this.matcher.tracks === library.tracks) return;
    this.matcher = null;
    if (this.building?.tracks !== library.tracks) this.building = this.build(library);
  }

  /**
   * The current library's matcher, made at a listen's first need of it after a start or a library
   * change. Made in steps between other requests: at a collector's size, made at once, it held
   * every request of the household for seconds. Listens meanwhile share the one being made; one
   * made for a library that changed meanwhile is dropped and made again for the new one.
   */
  private async currentMatcher(): Promise<TrackMatcher> {
    for (;;) {
      const library = this.library();
      if (this.matcher?.tracks === library.tracks) return this.matcher.matcher;
      if (this.building?.tracks !== library.tracks) this.building = this.build(library);
      const matcher = await this.building.made;
      if (matcher) return matcher;
    }
  }

  private build(library: Readonly<LibraryIndex>): Building {
    const { tracks } = library;
    const building = {
      tracks,
      made: inBackground(TrackMatcher.inSteps(library), () => this.library().tracks === tracks),
    };
    building.made.then(
      (matcher) => {
        if (matcher) this.matcher = { tracks, matcher };
        if (this.building === building) this.building = null;
      },
      () => {
        // Failed: the next listen that needs it begins again.
        if (this.building === building) this.building = null;
      },
    );
    return building;
  }

  private unmatchedKeySet(): Promise<ListenKeys> {
    this.unmatchedKeys ??= (async () => {
      const keys = new ListenKeys();
      for await (const listen of this.unmatched.read())
        keys.add(listen.userId, unmatchedKey(listen), listen.at);
      return keys;
    })();
    const pending = this.unmatchedKeys;
    pending.catch(() => {
      if (this.unmatchedKeys === pending) this.unmatchedKeys = null;
    });
    return pending;
  }
}

/**
 * A listen matched to its track. A class, neither `{ ...listen, track }` nor an object literal: see
 * BatchListen in import-service.ts.
 */
class Matched implements MatchedListen {
  readonly userId: string;
  readonly at: number;
  readonly device: string | null;
  readonly type: 'play' | 'skip';
  readonly windowMs: number;

  constructor(
    listen: Listen,
    readonly track: TrackRecord,
  ) {
    this.userId = listen.userId;
    this.at = listen.at;
    this.device = listen.device;
    this.type = listen.type;
    this.windowMs = listen.windowMs ?? 0;
  }
}

/** An unmatched listen's identity besides user and second: its normalised names. */
function unmatchedKey(listen: Listen): string {
  return String(pairHash(normaliseArtist(listen.artist), normaliseTitle(listen.title)));
}
