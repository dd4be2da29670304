import { Readable } from 'node:stream';
import type { TrackRecord } from '../../domain/library.js';
import type { Principal } from '../../domain/user.js';
import type { PlayLogEntry } from '../../domain/play.js';
import { entriesFrom } from '../stats/columns/log-rows.js';
import type { LogRowsSource } from './listen-log.js';
import { nextTurn } from '../next-turn.js';

export type ExportFormat = 'listenbrainz' | 'csv';

/** Rows read from the index per step of the stream: a page of entries, then the stream drains. */
const PAGE = 1000;

export interface ExportDeps {
  /** The privacy rule of the statistics reads. */
  readableUser(caller: Principal, userId: string | undefined): string;
  rows: LogRowsSource;
  /** The library track now, for MusicBrainz ids and names a log's snapshot lacks. */
  track(id: string): TrackRecord | undefined;
}

export const CSV_HEADER = 'artist,album,title,date,type,device,durationMs,trackId\n';

/**
 * A user's logs as a streamed download (docs/API.md, Import and export): ListenBrainz JSON lines
 * (plays only; ListenBrainz has no skips) that import back with nothing added, or CSV with plays
 * and skips. Read a page at a time from the stats index, oldest first.
 */
export class ExportService {
  constructor(private readonly deps: ExportDeps) {}

  export(caller: Principal, request: { userId?: string | undefined; format: ExportFormat }) {
    const userId = this.deps.readableUser(caller, request.userId);
    const line =
      request.format === 'csv' ? (e: PlayLogEntry) => this.csvLine(e) : (e: PlayLogEntry) => this.lbLine(e);
    const { rows } = this.deps;
    async function* lines() {
      if (request.format === 'csv') yield CSV_HEADER;
      for (let start = 0; ; start += PAGE) {
        const page = entriesFrom(rows.rowsOf(userId), start, PAGE);
        if (page.length === 0) return;
        let text = '';
        for (const entry of page) text += line(entry);
        if (text) yield text;
        // Let other requests run between pages.
        await nextTurn();
      }
    }
    return { userId, stream: Readable.from(lines()) };
  }

  private names(entry: PlayLogEntry) {
    const track = this.deps.track(entry.trackId);
    return {
      track,
      // The credit as the file has it ("Simon & Garfunkel"), which services match on; the first artist
      // logged for a track gone from the library.
      artist: track?.artist || entry.artistNames[0] || entry.artistNames.find(Boolean) || '',
      title: entry.trackName ?? track?.name ?? '',
      album: entry.albumName,
    };
  }

  private lbLine(entry: PlayLogEntry): string {
    if (entry.type !== 'play') return '';
    const { track, artist, title, album } = this.names(entry);
    const info: Record<string, unknown> = {
      duration_ms: entry.durationMs > 0 ? Math.round(entry.durationMs) : undefined,
      recording_mbid: track?.recordingMbid,
      release_mbid: track?.releaseMbid,
      artist_mbids: track?.artistMbids,
      tracknumber: track?.trackNumber ?? undefined,
      media_player: entry.device ?? undefined,
      submission_client: 'Melon',
    };
    const listen = {
      listened_at: Math.floor(entry.at / 1000),
      track_metadata: {
        artist_name: artist,
        track_name: title,
        ...(album && { release_name: album }),
        additional_info: info,
      },
    };
    return JSON.stringify(listen) + '\n';
  }

  private csvLine(entry: PlayLogEntry): string {
    const { artist, title, album } = this.names(entry);
    const cells = [
      artist,
      album ?? '',
      title,
      new Date(entry.at).toISOString(),
      entry.type,
      entry.device ?? '',
      String(Math.round(entry.durationMs)),
      entry.trackId,
    ];
    return cells.map(csvCell).join(',') + '\n';
  }
}

function csvCell(value: string): string {
  // Quoted when needed; a leading =, +, - or @, or a TAB or CR (a spreadsheet skips those and reads
  // the formula after them), is prefixed so a spreadsheet shows the cell as text (OWASP).
  const safe = /^[=+\-@\t\r]/u.test(value) ? `'${value}` : value;
  return /[",\n\r]/u.test(safe) ? `"${safe.replace(/"/gu, '""')}"` : safe;
}
