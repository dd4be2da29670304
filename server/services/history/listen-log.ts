import type { TrackRecord } from '../../domain/library.js';
import type { PlayStore } from '../../domain/ports.js';
import type { PlayLogEntry } from '../../domain/play.js';
import type { DeviceLimit } from '../stats/device-limit.js';
import { ListenKeys } from './listen-keys.js';
import { logEntryFor, type LibraryNames } from '../stats/log-entry.js';
import { forEachLog, type LogRows } from '../stats/columns/log-rows.js';

/** A listen matched to a library track, ready to be logged. */
export interface MatchedListen {
  userId: string;
  track: TrackRecord;
  /** Epoch ms, whole seconds. */
  at: number;
  device: string | null;
  type: 'play' | 'skip';
  /** The listen began somewhere in [at, at + windowMs) (Listen.windowMs); 0: at the second. */
  windowMs: number;
}

const MINUTE_MS = 60_000;

/** The parts of the stats index that read a user's rows. */
export interface LogRowsSource {
  rowsOf(userId: string): LogRows | undefined;
}

/** The parts of the stats index this needs: rows, and room for rows an import is about to add. */
export interface ListenIndex extends LogRowsSource {
  reserveRows(userId: string, rows: number): void;
  dropSpareRows(userId: string): void;
}

/**
 * Writes listens (ListenBrainz submissions, imports) to the play log, each at most once: a listen is
 * dropped when a log of the same user and track already sits in the same second, whatever wrote it
 * (docs/API.md, Listening history). The keys of every log are kept in a compact set, made from the
 * stats index on first use and kept current by `note` for every log written after.
 */
export class ListenLog {
  private keys: ListenKeys | null = null;

  constructor(
    private readonly playLog: PlayStore,
    private readonly index: ListenIndex,
    private readonly library: LibraryNames,
    private readonly userIds: () => Iterable<string>,
    /** The names devices are logged under (a bounded number per user). */
    private readonly devices: DeviceLimit,
  ) {}

  /** Records a log written elsewhere (log-play, log-skip) once it is durable. */
  note(entry: PlayLogEntry): void {
    this.keys?.add(entry.userId, entry.trackId, entry.at);
  }

  /** Whether a listen would be a duplicate now. */
  isDuplicate(userId: string, trackId: string, at: number): boolean {
    return this.keySet().has(userId, trackId, at);
  }

  /**
   * Room for about `logs` more logs of a user, made at once (an import's estimate of what it will
   * add): the key set and the user's index columns then grow once rather than step by step.
   */
  reserve(userId: string, logs: number): void {
    if (logs <= 0) return;
    this.keySet().reserve(logs);
    this.index.reserveRows(userId, logs);
  }

  /** After an import: drops the room its estimate reserved beyond what it added. */
  settle(userId: string): void {
    this.index.dropSpareRows(userId);
  }

  /**
   * Appends the listens that are not duplicates in one group commit and resolves once they are
   * durable. Keys are taken before the write, so a concurrent submission of the same listen is
   * dropped too; if the write fails, the set is rebuilt from the index at the next use.
   */
  async record(
    listens: readonly MatchedListen[],
  ): Promise<{ added: number; duplicates: number; entries: readonly PlayLogEntry[] }> {
    const keys = this.keySet();
    const entries: PlayLogEntry[] = [];
    for (const listen of listens) {
      if (isLoggedWithin(keys, listen) || !keys.add(listen.userId, listen.track.id, listen.at)) continue;
      // Field by field, not `{ ...listen, explicitAt: true }`: see BatchListen in import-service.ts.
      const { userId, type, at } = listen;
      const device = this.devices.nameFor(userId, listen.device);
      entries.push(logEntryFor(this.library, listen.track, { userId, type, at, device, explicitAt: true }));
    }
    try {
      await this.playLog.appendMany(entries);
    } catch (error) {
      this.keys = null;
      throw error;
    }
    return { added: entries.length, duplicates: listens.length - entries.length, entries };
  }

  private keySet(): ListenKeys {
    if (this.keys) return this.keys;
    const keys = new ListenKeys();
    for (const userId of this.userIds()) {
      forEachLog(this.index.rowsOf(userId), undefined, undefined, (trackId, at) =>
        keys.add(userId, trackId, at),
      );
    }
    this.keys = keys;
    return keys;
  }
}

/**
 * Whether a listen known only to some window was logged already by a source that knew its second:
 * a log of its track at any second of the window. And the other way: whether a listen known to the
 * second was logged already by a source that knew only its minute, at that minute's first second.
 * Importing both Last.fm's minutes and ListenBrainz's seconds of the same scrobbles counts each once.
 * (A second play of one track in the minute of a play logged at its :00 is taken for the same one.)
 */
function isLoggedWithin(keys: ListenKeys, listen: MatchedListen): boolean {
  const { userId, at } = listen;
  const trackId = listen.track.id;
  if (listen.windowMs > 0) {
    for (let t = at; t < at + listen.windowMs; t += 1000) if (keys.has(userId, trackId, t)) return true;
    return false;
  }
  const minute = at - (((at % MINUTE_MS) + MINUTE_MS) % MINUTE_MS);
  return minute !== at && keys.has(userId, trackId, minute);
}
