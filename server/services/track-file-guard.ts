import type { TrackRecord } from '../domain/library.js';
import { notFound } from '../errors.js';
import {
  openTrackFile,
  realMusicFolders,
  TrackFileRefused,
  type OpenedTrackFile,
} from '../library/track-file.js';
import type { Logger } from '../logger.js';

/**
 * The one way the services open a track's file (docs/API.md, Security: files in the music folders).
 * A file that is not the one the scan indexed answers 404 `track_file_not_found` with nothing read,
 * and the music folders are scanned again so the library catches up with the change.
 *
 * A record kept before identities were recorded has none to check against: it is refused the same
 * way until its scan (the start-up scan gives every unchanged file one without re-reading it).
 */
export class TrackFileGuard {
  constructor(
    private readonly dirs: readonly string[],
    private readonly logger: Logger,
    private readonly rescan: () => void,
  ) {}

  async open(track: TrackRecord): Promise<OpenedTrackFile> {
    try {
      if (track.dev === undefined || track.ino === undefined)
        throw new TrackFileRefused('unverified', 'The track has not been scanned since identities were kept');
      const roots = await realMusicFolders(this.dirs);
      return await openTrackFile(track.path, roots, { dev: track.dev, ino: track.ino });
    } catch (error) {
      if (!(error instanceof TrackFileRefused)) throw error;
      this.logger.warn('track file refused', { track: track.id, reason: error.reason });
      this.rescan();
      throw notFound(
        'track_file_not_found',
        `The file of track '${track.id}' is missing or is not the file the library indexed`,
      );
    }
  }
}
