export type ImportSource = 'listenbrainz' | 'lastfm' | 'spotify';

/** An import's record: what was asked, how far it got, and its report. Kept in the data folder. */
export interface ImportJob {
  id: string;
  userId: string;
  /** Who started it (an Admin may import for anyone). */
  startedBy: string;
  /** The service the file is from, as recognised from its content (the uploader's `source` a hint). */
  source: ImportSource;
  /** What the file was taken for (docs/API.md, Import and export); absent in records of older versions. */
  takenAs?: string;
  /** Keep Spotify's private-session streams. */
  keepIncognito?: boolean;
  /** Bytes read of the file (unpacked, for a ZIP), and of all there is to read. */
  bytesRead?: number;
  bytesTotal?: number;
  status: 'queued' | 'running' | 'done' | 'failed';
  createdAt: number;
  finishedAt: number | null;
  /** Entries read from the file (listens, ignored and refused ones). */
  read: number;
  matched: number;
  unmatched: number;
  duplicates: number;
  refused: number;
  /** Entries that are not listens of music (Spotify podcasts). */
  ignored: number;
  /** The first refused entries: their number in the file and why. */
  problems: Array<{ entry: number; reason: string; file?: string }>;
  /** Why the whole import stopped, when it failed. */
  error: string | null;
}

/** A job that has read nothing yet: what an upload becomes before it runs. */
export function queuedJob(
  fields: Pick<ImportJob, 'id' | 'userId' | 'startedBy' | 'source' | 'createdAt'> & Partial<ImportJob>,
): ImportJob {
  return {
    status: 'queued',
    finishedAt: null,
    read: 0,
    matched: 0,
    unmatched: 0,
    duplicates: 0,
    refused: 0,
    ignored: 0,
    problems: [],
    error: null,
    ...fields,
  };
}
