import type { OutgoingListen } from '../../domain/forwarding.js';
import type { TrackRecord } from '../../domain/library.js';
import type { Listen } from '../../domain/listen.js';
import type { PlayLogEntry } from '../../domain/play.js';
import type { LibraryNames } from '../stats/log-entry.js';

/**
 * A logged play as it goes out, as the export writes it: the track's credit as tagged ("Simon &
 * Garfunkel") while the library has the track, else the first artist it was logged with; the
 * names it was logged with, and the track's MusicBrainz ids when the library still has the track.
 */
export function outgoingOfEntry(entry: PlayLogEntry, track: TrackRecord | undefined): OutgoingListen {
  return {
    listenedAt: Math.floor(entry.at / 1000),
    artist: track?.artist || entry.artistNames[0] || entry.artistNames.find(Boolean) || '',
    title: entry.trackName ?? track?.name ?? '',
    album: entry.albumName,
    durationMs: entry.durationMs > 0 ? entry.durationMs : null,
    recordingMbid: track?.recordingMbid ?? null,
    releaseMbid: track?.releaseMbid ?? null,
    trackNumber: track?.trackNumber ?? null,
    client: entry.device,
  };
}

/** A library track a player announced as playing now (`at`: epoch ms). */
export function outgoingOfTrack(
  library: LibraryNames,
  track: TrackRecord,
  client: string | null,
  at: number,
): OutgoingListen {
  const artistId = track.artistIds[0];
  return {
    listenedAt: Math.floor(at / 1000),
    artist: track.artist ?? (artistId === undefined ? null : library.artistName(artistId)) ?? '',
    title: track.name,
    album: track.albumId ? library.albumName(track.albumId) : null,
    durationMs: track.durationMs > 0 ? track.durationMs : null,
    recordingMbid: track.recordingMbid ?? null,
    releaseMbid: track.releaseMbid ?? null,
    trackNumber: track.trackNumber,
    client,
  };
}

/** A submitted listen that matched no library track: it goes out with the names it came with. */
export function outgoingOfListen(listen: Omit<Listen, 'at' | 'type'> & { at?: number }): OutgoingListen {
  return {
    listenedAt: Math.floor((listen.at ?? 0) / 1000),
    artist: listen.artist,
    title: listen.title,
    album: listen.album,
    durationMs: null,
    recordingMbid: listen.recordingMbid,
    releaseMbid: null,
    trackNumber: null,
    client: listen.device,
  };
}
