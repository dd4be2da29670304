import type { ImportSource } from '../../../domain/import-job.js';
import type { ParsedEntry } from '../../../domain/listen.js';
import { CSV_LAYOUTS, headerOf, parseLastfmCsv, PLAIN_CSV, splitRow, type CsvLayout } from './lastfm.js';
import { parseListenBrainzArray, parseListenBrainzLines } from './listenbrainz.js';
import { parseSpotifyHistory, type SpotifyOptions } from './spotify.js';
import type { ByteReader } from './streams.js';

/**
 * The kinds of history file Melon reads, how each is recognised from its first bytes (or, inside a
 * ZIP, from its name), and what to upload instead when a file is something else.
 */

export type FormatId =
  | 'listenbrainz-lines'
  | 'listenbrainz-array'
  | 'spotify-extended'
  | 'spotify-account'
  | 'lastfm-csv'
  | 'lastfm-benjaminbenben'
  | 'librefm-csv'
  | 'lastfm-ghan';

interface Format {
  source: ImportSource;
  /** What the file was taken for, as the import's report says it. */
  label: string;
  /** What to upload instead, when none of its entries could be read. */
  upload: string;
  read(source: ByteReader, progress: { read: number }, options: ReadOptions): AsyncGenerator<ParsedEntry>;
}

export type ReadOptions = SpotifyOptions;

const LB_UPLOAD =
  "upload the ZIP of ListenBrainz's export as it comes (its listens/<year>/<month>.jsonl files)";
const SPOTIFY_UPLOAD =
  "upload Spotify's my_spotify_data.zip as it comes, or its Streaming_History_Audio_*.json or StreamingHistory_music_*.json files";
const CSV_UPLOAD =
  'upload the CSV of lastfm.ghan.nl, lastfm-to-csv or Libre.fm as it comes, or rows of artist,album,title,date';

const csv =
  (layout: CsvLayout): Format['read'] =>
  (source, progress) =>
    parseLastfmCsv(source, progress, layout);

export const FORMATS: Record<FormatId, Format> = {
  'listenbrainz-lines': {
    source: 'listenbrainz',
    label: 'ListenBrainz listens (JSON lines)',
    upload: LB_UPLOAD,
    read: (source, progress) => parseListenBrainzLines(source, progress),
  },
  'listenbrainz-array': {
    source: 'listenbrainz',
    label: 'ListenBrainz listens (a JSON array)',
    upload: LB_UPLOAD,
    read: (source, progress) => parseListenBrainzArray(source, progress),
  },
  'spotify-extended': {
    source: 'spotify',
    label: 'Spotify Extended Streaming History',
    upload: SPOTIFY_UPLOAD,
    read: (source, progress, options) => parseSpotifyHistory(source, progress, options),
  },
  'spotify-account': {
    source: 'spotify',
    label: "Spotify's streaming history from its Account data",
    upload: SPOTIFY_UPLOAD,
    read: (source, progress, options) => parseSpotifyHistory(source, progress, options),
  },
  'lastfm-csv': {
    source: 'lastfm',
    label: 'Last.fm CSV (artist,album,title,date)',
    upload: CSV_UPLOAD,
    read: csv(PLAIN_CSV),
  },
  'lastfm-benjaminbenben': {
    source: 'lastfm',
    label: 'Last.fm CSV of lastfm-to-csv (artist,album,name,date)',
    upload: CSV_UPLOAD,
    read: csv(CSV_LAYOUTS.benjaminbenben!),
  },
  'librefm-csv': {
    source: 'lastfm',
    label: 'Libre.fm CSV (Artist,Track,Album,Time)',
    upload: CSV_UPLOAD,
    read: csv(CSV_LAYOUTS.librefm!),
  },
  'lastfm-ghan': {
    source: 'lastfm',
    label: 'Last.fm CSV of lastfm.ghan.nl',
    upload: CSV_UPLOAD,
    read: csv(CSV_LAYOUTS.ghan!),
  },
};

const CSV_BY_HEADER = new Map<string, FormatId>([
  [CSV_LAYOUTS.plain!.header!, 'lastfm-csv'],
  [CSV_LAYOUTS.benjaminbenben!.header!, 'lastfm-benjaminbenben'],
  [CSV_LAYOUTS.librefm!.header!, 'librefm-csv'],
  [CSV_LAYOUTS.ghan!.header!, 'lastfm-ghan'],
]);

/** A file that is not one Melon reads: why, in words for the person who uploaded it. */
export type Unrecognised = { empty: boolean; reason: string };

/**
 * What a file is, from its first bytes (up to 64 KiB, as text): a format, or why it is none. `hint`
 * is the `source` the uploader gave, used only when the content does not say.
 */
export function recognise(head: string, hint?: ImportSource): FormatId | Unrecognised {
  const text = head.replace(/^\uFEFF/u, '').trimStart();
  if (text === '') return { empty: true, reason: 'The file is empty' };
  if (text.startsWith('[')) {
    if (/^\[\s*\]\s*$/u.test(text))
      return { empty: true, reason: 'The file is an empty JSON array: it holds no listens' };
    if (text.includes('"track_metadata"')) return 'listenbrainz-array';
    if (text.includes('"ms_played"') || text.includes('"master_metadata_track_name"'))
      return 'spotify-extended';
    if (text.includes('"msPlayed"') && text.includes('"trackName"')) return 'spotify-account';
    if (text.includes('"podcastName"'))
      return unrecognised(
        "Spotify's podcast history (StreamingHistory_podcast_*.json), not music",
        SPOTIFY_UPLOAD,
      );
    if (hint === 'spotify') return 'spotify-extended';
    if (hint === 'listenbrainz') return 'listenbrainz-array';
    return unrecognised('a JSON array, but not of listens Melon knows', `${LB_UPLOAD}, or ${SPOTIFY_UPLOAD}`);
  }
  if (text.startsWith('{')) {
    const line = text.split('\n', 1)[0]!;
    if (line.includes('"track_metadata"')) return 'listenbrainz-lines';
    if (line.includes('"score"') && line.includes('"recording_m'))
      return unrecognised("ListenBrainz's feedback.jsonl (loved and hated tracks), not listens", LB_UPLOAD);
    if (line.includes('"pinned_until"') || line.includes('"blurb_content"'))
      return unrecognised("ListenBrainz's pinned_recording.jsonl, not listens", LB_UPLOAD);
    if (line.includes('"user_name"') || line.includes('"username"') || line.includes('"user_id"'))
      return unrecognised("ListenBrainz's user.json, not listens", LB_UPLOAD);
    if (line.includes('"tracks"') && line.includes('"albums"'))
      return unrecognised("Spotify's YourLibrary.json (saved music), not streams", SPOTIFY_UPLOAD);
    if (hint === 'listenbrainz') return 'listenbrainz-lines';
    return unrecognised('a JSON document, but not listens Melon knows', `${LB_UPLOAD}, or ${SPOTIFY_UPLOAD}`);
  }
  const firstLine = text.split(/\r\n|\r|\n/u, 1)[0]!;
  const row = splitRow(firstLine);
  if (row !== 'open') {
    const known = CSV_BY_HEADER.get(headerOf(row));
    if (known) return known;
  }
  // Text that is not JSON: the rows of the plain CSV form (each row not one is refused, and a file
  // of none ends with what to upload instead).
  if (/^[^\0]*$/u.test(text.slice(0, 4096))) return 'lastfm-csv';
  return unrecognised(
    'not a listening history Melon knows',
    `${LB_UPLOAD}, ${SPOTIFY_UPLOAD}, or ${CSV_UPLOAD}`,
  );
}

const unrecognised = (what: string, upload: string): Unrecognised => ({
  empty: false,
  reason: `This looks like ${what}; ${upload}`,
});

/**
 * The format of an entry of an export ZIP, from its name; null for the entries that hold no listens
 * (user.json, feedback.jsonl, Spotify's podcast and video history, Userdata.json, …).
 */
export function formatOfZipEntry(name: string): FormatId | null {
  if (name.startsWith('__MACOSX/')) return null;
  const base = name.slice(name.lastIndexOf('/') + 1);
  if (/(^|\/)listens\/.*\.jsonl$/iu.test(name)) return 'listenbrainz-lines';
  if (/^(Streaming_History_Audio_.*|endsong_.*)\.json$/iu.test(base)) return 'spotify-extended';
  if (/^StreamingHistory(_music_\d+|\d*)\.json$/iu.test(base)) return 'spotify-account';
  return null;
}

/** Why a ZIP with no entry of listens is not imported, from the names it holds. */
export function emptyZipReason(names: readonly string[]): string {
  const bases = names.map((n) => n.slice(n.lastIndexOf('/') + 1).toLowerCase());
  if (bases.includes('user.json') || bases.includes('feedback.jsonl'))
    return `This looks like ListenBrainz's export without its listens/ folder; ${LB_UPLOAD}`;
  if (
    bases.some(
      (b) => b.startsWith('streaminghistory') || b === 'userdata.json' || b.startsWith('streaming_history'),
    )
  )
    return `This looks like Spotify's data without music streams; ${SPOTIFY_UPLOAD}`;
  return `This ZIP holds no listening history Melon knows; ${LB_UPLOAD}, or ${SPOTIFY_UPLOAD}`;
}
