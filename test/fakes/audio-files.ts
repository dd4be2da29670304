import path from 'node:path';
import type { ArtworkInfo, TrackRecord } from '../../server/domain/library.js';
import { PictureEditError } from '../../server/library/picture-editor.js';
import type { AudioFileIo } from '../../server/library/track-files.js';

/**
 * Audio files as TrackFiles edits them, in memory: each file holds pictures; a file never added, or
 * deleted, fails as one gone from disk (ENOENT), and a position past its pictures as the picture
 * editor refuses it.
 */
export class FakeAudioFiles implements AudioFileIo {
  private readonly files = new Map<string, ArtworkInfo[]>();

  /** A track's file, holding the pictures its record lists. */
  add(track: TrackRecord): void {
    this.files.set(path.resolve(track.path), [...track.artwork]);
  }

  delete(track: TrackRecord): void {
    this.files.delete(path.resolve(track.path));
  }

  removePicture(track: TrackRecord, pos: number): Promise<TrackRecord> {
    const pictures = this.files.get(path.resolve(track.path));
    if (!pictures) return Promise.reject(gone(track.path));
    if (pos < 0 || pos >= pictures.length)
      return Promise.reject(new PictureEditError('position_out_of_range', `no picture at ${pos}`));
    pictures.splice(pos, 1);
    return Promise.resolve(track);
  }

  reread(track: TrackRecord): Promise<TrackRecord> {
    const pictures = this.files.get(path.resolve(track.path));
    if (!pictures) return Promise.reject(gone(track.path));
    return Promise.resolve({ ...track, artwork: pictures.map((picture, pos) => ({ ...picture, pos })) });
  }
}

function gone(file: string): Error {
  return Object.assign(new Error(`ENOENT: no such file or directory, open '${file}'`), { code: 'ENOENT' });
}
