import type { TrackRecord } from '../domain/library.js';
import { readLyrics, type Lyrics } from '../library/lyrics.js';
import type { LibraryService } from './library-service.js';

/** Lyrics of the library's tracks, read from their files when asked (never stored). */
export class LyricsService {
  constructor(
    private readonly library: LibraryService,
    private readonly read: (file: string) => Promise<Lyrics[]> = readLyrics,
  ) {}

  /** Every source of lyrics the track has; 404 track_not_found for an unknown id. */
  async ofTrack(id: string): Promise<{ track: TrackRecord; lyrics: Lyrics[] }> {
    const track = this.library.track(id);
    return { track, lyrics: await this.read(track.path) };
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
      const [first] = await this.read(track.path);
      if (first) return { track, lyrics: first };
    }
    return null;
  }
}
