/**
 * The one owner of edits to audio files (docs/API.md, Artwork, `track-art`). Edits of one path run one after
 * another, so a second removal at the same position sees the first one's result instead of racing it;
 * edits of different paths run side by side.
 */
import path from 'node:path';
import { plainTrack, type TrackRecord } from '../domain/library.js';
import { removePicture } from './picture-editor.js';
import { rereadTrack } from './track-entry.js';
import type { OpenedTrackFile } from './track-file.js';

/** The file operations TrackFiles puts in order; tests swap them to control when each one ends. */
export interface AudioFileIo {
  /** Removes the picture; answers the track with the identity of its rewritten file. */
  removePicture(track: TrackRecord, pos: number): Promise<TrackRecord>;
  reread(track: TrackRecord): Promise<TrackRecord>;
}

/** Opens a track's file, checked (library/track-file.ts); refuses a file that is not the track's. */
export type TrackOpener = (track: TrackRecord) => Promise<OpenedTrackFile>;

/** The real files, each opened through `open` and read or edited only through its handle. */
export function audioFilesOnDisk(open: TrackOpener): AudioFileIo {
  const withFile = async <T>(track: TrackRecord, use: (file: OpenedTrackFile) => Promise<T>) => {
    const file = await open(track);
    try {
      return await use(file);
    } finally {
      await file.handle.close();
    }
  };
  return {
    removePicture: (track, pos) =>
      withFile(track, async (file) => ({ ...plainTrack(track), ...(await removePicture(file, pos)) })),
    reread: (track) => withFile(track, (file) => rereadTrack(track, file)),
  };
}

export class TrackFiles {
  /** Per absolute path, the last queued edit, settled whatever its outcome. */
  private readonly queues = new Map<string, Promise<void>>();

  /**
   * Each file an edit replaced (by its path and `dev:ino`) and the file that took its place: a request
   * that read the track's record before an earlier edit landed still edits the current file, and only
   * that. The path is part of the key because a freed inode number is soon given to another new file
   * (the next edit's copy of another track): by `dev:ino` alone, that track would follow this chain.
   */
  private readonly replaced = new Map<string, Pick<TrackRecord, 'dev' | 'ino'>>();

  constructor(private readonly io: AudioFileIo) {}

  /** The track with the identity of the file that now stands where its record's file was. */
  private current(track: TrackRecord): TrackRecord {
    const file = path.resolve(track.path);
    let identity: Pick<TrackRecord, 'dev' | 'ino'> = track;
    for (
      let next = this.replaced.get(keyOf(file, identity));
      next;
      next = this.replaced.get(keyOf(file, identity))
    )
      identity = next;
    return { ...plainTrack(track), dev: identity.dev, ino: identity.ino };
  }

  /**
   * Removes the picture at `pos` from the track's file and returns the track as its file now reads:
   * the file is the truth, so its pictures are listed again. A failed edit (PictureEditError, or an
   * errno error such as ENOENT) rejects and leaves the file as it was.
   */
  async removePicture(track: TrackRecord, pos: number): Promise<TrackRecord> {
    const file = path.resolve(track.path);
    let edited = track;
    await this.enqueue(file, async () => {
      const before = this.current(track);
      edited = await this.io.removePicture(before, pos);
      if (before.ino !== undefined && keyOf(file, before) !== keyOf(file, edited)) {
        this.replaced.set(keyOf(file, before), { dev: edited.dev, ino: edited.ino });
        // The new file is the current one: no chain leads on from it (its number may be a reused one).
        this.replaced.delete(keyOf(file, edited));
      }
    });
    return this.io.reread(edited);
  }

  /** Resolves once no edit is queued or running. */
  async waitForEdits(): Promise<void> {
    while (this.queues.size > 0) await Promise.all(this.queues.values());
  }

  private enqueue(file: string, edit: () => Promise<void>): Promise<void> {
    const previous = this.queues.get(file) ?? Promise.resolve();
    // Each edit starts after the previous one of the same path settles, whatever its outcome.
    const current = previous.then(edit);
    const settled = current.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(file, settled);
    void settled.then(() => {
      if (this.queues.get(file) === settled) this.queues.delete(file);
    });
    return current;
  }
}

const keyOf = (file: string, identity: Pick<TrackRecord, 'dev' | 'ino'>): string =>
  `${file}\0${String(identity.dev)}:${String(identity.ino)}`;
