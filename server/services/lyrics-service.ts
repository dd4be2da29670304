import type { TrackRecord } from '../domain/library.js';
import { AppError } from '../errors.js';
import { lrcPathOf, MAX_LRC_BYTES, readLyrics, type Lyrics } from '../library/lyrics.js';
import { openTrackFile, realMusicFolders, type OpenedTrackFile } from '../library/track-file.js';
import type { LibraryService } from './library-service.js';

/**
 * Lyrics of the library's tracks, read from their files when asked (never stored). The audio file
 * is opened and checked as every track read is; the `.lrc` file beside it must be a regular file
 * that really lies inside a music folder and has no other name (a hard link to a file elsewhere).
 */
export class LyricsService {
  constructor(
    private readonly library: LibraryService,
    private readonly musicFolders: readonly string[],
  ) {}

  /** Every source of lyrics the track has; 404 track_not_found for an unknown id. */
  async ofTrack(id: string): Promise<{ track: TrackRecord; lyrics: Lyrics[] }> {
    const track = this.library.track(id);
    return { track, lyrics: await this.read(track) };
  }

  /** 404 track_file_not_found when the track's file is not the scanned one. */
  private async read(track: TrackRecord): Promise<Lyrics[]> {
    const file = await this.library.openTrackFile(track);
    try {
      const lrc = await this.openLrc(lrcPathOf(track.path));
      try {
        return await readLyrics(file, lrc?.handle ?? null);
      } finally {
        await lrc?.handle.close();
      }
    } finally {
      await file.handle.close();
    }
  }

  private async openLrc(file: string): Promise<OpenedTrackFile | null> {
    let lrc: OpenedTrackFile;
    try {
      lrc = await openTrackFile(file, await realMusicFolders(this.musicFolders), null);
    } catch {
      return null; // none, or not one to read
    }
    if (lrc.stat.nlink === 1 && lrc.stat.size <= MAX_LRC_BYTES) return lrc;
    await lrc.handle.close();
    return null;
  }

  /**
   * The first track named `title` (case ignored) by an artist named `artist` (when given) that has
   * lyrics, with them; null when none has.
   */
  async byName(
    artist: string | undefined,
    title: string,
  ): Promise<{ track: TrackRecord; lyrics: Lyrics } | null> {
    const wanted = title.toLocaleLowerCase('en');
    const by = artist?.toLocaleLowerCase('en');
    const candidates = this.library
      .trackRecords()
      .filter((track) => track.name.toLocaleLowerCase('en') === wanted)
      .filter(
        (track) =>
          by === undefined ||
          track.artistIds.some((id) => (this.library.artistName(id) ?? '').toLocaleLowerCase('en') === by),
      )
      .slice(0, 20);
    for (const track of candidates) {
      let lyrics: Lyrics[];
      try {
        lyrics = await this.read(track);
      } catch (error) {
        // A track whose file is refused has no lyrics to offer; the next one may.
        if (error instanceof AppError && error.code === 'track_file_not_found') continue;
        throw error;
      }
      if (lyrics[0]) return { track, lyrics: lyrics[0] };
    }
    return null;
  }
}
