/**
 * Real-shaped export files, made in the tests: ListenBrainz's listen JSON (users/json), the CSV of
 * the common Last.fm export tools (`artist,album,title,date`, "31 Jan 2021 14:03" in UTC) and
 * Spotify's Extended Streaming History entries (`Streaming_History_Audio_*.json`).
 */

export interface SampleListen {
  at: string;
  artist: string;
  title: string;
  album?: string;
  mbid?: string;
  player?: string;
}

export function listenBrainzListen(l: SampleListen) {
  return {
    listened_at: Math.floor(Date.parse(l.at) / 1000),
    recording_msid: '2c8e1d1a-0000-4000-8000-000000000000',
    user_name: 'someone',
    inserted_at: Math.floor(Date.parse(l.at) / 1000) + 5,
    track_metadata: {
      artist_name: l.artist,
      track_name: l.title,
      ...(l.album && { release_name: l.album }),
      additional_info: {
        ...(l.mbid && { recording_mbid: l.mbid }),
        ...(l.player && { media_player: l.player }),
        submission_client: 'Pano Scrobbler',
      },
      mbid_mapping: null,
    },
  };
}

export const listenBrainzLines = (listens: SampleListen[], extraLines: string[] = []) =>
  [...listens.map((l) => JSON.stringify(listenBrainzListen(l))), ...extraLines].join('\n') + '\n';

export const listenBrainzArray = (listens: SampleListen[]) =>
  JSON.stringify(listens.map(listenBrainzListen), null, 2);

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "31 Jan 2021 14:03", the export tools' date, in UTC. */
export function lastfmDate(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

const csvCell = (value: string) => (/[",\n]/u.test(value) ? `"${value.replace(/"/gu, '""')}"` : value);

export const lastfmCsv = (
  rows: Array<[artist: string, album: string, title: string, iso: string]>,
  header = true,
) =>
  (header ? 'artist,album,title,date\n' : '') +
  rows
    .map(([artist, album, title, iso]) => [artist, album, title, lastfmDate(iso)].map(csvCell).join(','))
    .join('\n') +
  '\n';

export interface SpotifyStream {
  ts: string;
  ms: number;
  track?: string;
  artist?: string;
  album?: string;
  skipped?: boolean | null;
  /** Why the stream ended (default: `fwdbtn` when skipped, else `trackdone`). */
  reasonEnd?: string | null;
  incognito?: boolean;
  episode?: string;
  platform?: string;
}

export function spotifyEntry(s: SpotifyStream) {
  return {
    ts: s.ts,
    platform: s.platform ?? 'Android OS 14 API 34 (Google, Pixel 8)',
    ms_played: s.ms,
    conn_country: 'NL',
    ip_addr: '192.0.2.1',
    master_metadata_track_name: s.track ?? null,
    master_metadata_album_artist_name: s.artist ?? null,
    master_metadata_album_album_name: s.album ?? null,
    spotify_track_uri: s.track ? 'spotify:track:4cOdK2wGLETKBW3PvgPWqT' : null,
    episode_name: s.episode ?? null,
    episode_show_name: s.episode ? 'A Podcast' : null,
    spotify_episode_uri: s.episode ? 'spotify:episode:0000000000000000000000' : null,
    audiobook_title: null,
    audiobook_uri: null,
    audiobook_chapter_uri: null,
    audiobook_chapter_title: null,
    reason_start: 'trackdone',
    reason_end: s.reasonEnd !== undefined ? s.reasonEnd : s.skipped ? 'fwdbtn' : 'trackdone',
    shuffle: false,
    skipped: s.skipped ?? null,
    offline: false,
    offline_timestamp: null,
    incognito_mode: s.incognito ?? false,
  };
}

export const spotifyHistory = (streams: SpotifyStream[], extra: unknown[] = []) =>
  JSON.stringify([...streams.map(spotifyEntry), ...extra]);

/** Spotify's Account data streaming history (`StreamingHistory_music_*.json`): times to the minute, UTC. */
export const spotifyAccountHistory = (
  streams: Array<{ end: string; artist: string; track: string; ms: number }>,
) =>
  JSON.stringify(
    streams.map((s) => ({ endTime: s.end, artistName: s.artist, trackName: s.track, msPlayed: s.ms })),
    null,
    2,
  );

/** lastfm.ghan.nl's CSV: Unix time first, MBIDs beside the names, every cell quoted. */
export const ghanCsv = (
  rows: Array<{ at: string; artist: string; album: string; title: string; mbid?: string }>,
) =>
  ['uts,utc_time,artist,artist_mbid,album,album_mbid,track,track_mbid']
    .concat(
      rows.map((r) => {
        const uts = Math.floor(Date.parse(r.at) / 1000);
        return [String(uts), lastfmDate(r.at), r.artist, '', r.album, '', r.title, r.mbid ?? '']
          .map((cell) => `"${cell.replace(/"/gu, '""')}"`)
          .join(',');
      }),
    )
    .join('\n') + '\n';
