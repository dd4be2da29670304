/**
 * The one owner of edits to audio files (docs/API.md, Artwork, `track-art`). Edits of one path run one after
 * another, so a second removal at the same position sees the first one's result instead of racing it;
 * edits of different paths run side by side.
 */
import path from 'node:path';
import type { TrackRecord } from '../domain/library.js';
import { removePicture } from './picture-editor.js';
import { rereadTrack } from './track-entry.js';

/** The file operations TrackFiles puts in order; tests swap them to control when each one ends. */
export interface AudioFileIo {
  removePicture(file: string, pos: number): Promise<void>;
  reread(track: TrackRecord): Promise<TrackRecord>;
}

const onDisk: AudioFileIo = { removePicture, reread: rereadTrack };

export class TrackFiles {
  /** Per absolute path, the last queued edit, settled whatever its outcome. */
  private readonly queues = new Map<string, Promise<void>>();

  constructor(private readonly io: AudioFileIo = onDisk) {}

  /**
   * Removes the picture at `pos` from the track's file and returns the track as its file now reads:
   * the file is the truth, so its pictures are listed again. A failed edit (PictureEditError, or an
   * errno error such as ENOENT) rejects and leaves the file as it was.
   */
  async removePicture(track: TrackRecord, pos: number): Promise<TrackRecord> {
    const file = path.resolve(track.path);
    await this.enqueue(file, () => this.io.removePicture(file, pos));
    return this.io.reread(track);
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
