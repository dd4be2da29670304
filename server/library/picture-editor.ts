/**
 * Removes one embedded picture from an audio file (docs/API.md, Artwork, `track-art`), leaving every other tag,
 * picture and the audio data as they were.
 *
 * The edit is atomic: the original is copied to a hidden temp file in the same folder, the copy is
 * edited and flushed, then renamed over the original (and the folder flushed), so a crash leaves either
 * the old or the new file. This module keeps no state: TrackFiles runs edits of one path one after
 * another.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { File as TagFile } from 'node-taglib-sharp';
import { fsyncDir } from '../fs/atomic-file.js';
import { errnoCode } from '../fs/errno.js';
import { messageOf } from '../errors.js';
import { TrackFileRefused, type FileIdentity, type OpenedTrackFile } from './track-file.js';

export type PictureEditReason = 'position_out_of_range' | 'unsupported_format' | 'not_writable';

export class PictureEditError extends Error {
  constructor(
    readonly reason: PictureEditReason,
    message: string,
  ) {
    super(message);
    this.name = 'PictureEditError';
  }
}

/** node-taglib-sharp picks the file type from a "taglib/<ext>" mime; the temp file's name has no ext. */
const SUPPORTED_EXTENSIONS = new Set(['mp3', 'flac', 'm4a', 'mp4', 'ogg', 'oga', 'opus']);
const NOT_WRITABLE_CODES = new Set(['EACCES', 'EPERM', 'EROFS']);

let tagWriter: Promise<typeof TagFile> | undefined;

/**
 * node-taglib-sharp, loaded at the first picture edit: it is a large library that most servers
 * never use, and held in memory from the start it would cost every one of them.
 */
function loadTagWriter(): Promise<typeof TagFile> {
  tagWriter ??= import('node-taglib-sharp').then(({ File, MpegAudioFileSettings, TagTypes }) => {
    // Without this, saving an MP3 adds an ID3v1 tag next to the ID3v2 one. Existing ID3v2 tags keep
    // their version because Id3v2Settings.forceDefaultVersion stays false.
    MpegAudioFileSettings.defaultTagTypes = TagTypes.Id3v2;
    return File;
  });
  return tagWriter;
}

/**
 * Removes picture `pos` from the opened track file and answers the identity of the file that now
 * stands in its place. The copy is made from the opened handle, next to where the file really is, and
 * the rename happens only while that name still holds the very file that was opened: a track swapped
 * for a link or another file meanwhile is never rewritten (TrackFileRefused).
 */
export async function removePicture(file: OpenedTrackFile, pos: number): Promise<FileIdentity> {
  const ext = path.extname(file.path).slice(1).toLowerCase();
  if (!SUPPORTED_EXTENSIONS.has(ext)) {
    throw new PictureEditError('unsupported_format', `Cannot edit pictures of .${ext} files`);
  }
  if (!Number.isInteger(pos) || pos < 0) {
    throw new PictureEditError('position_out_of_range', `Invalid picture position ${pos}`);
  }
  const tagFiles = await loadTagWriter();
  const target = file.realPath;
  const temp = path.join(
    path.dirname(target),
    `.${path.basename(target)}.melon-${randomBytes(6).toString('hex')}.tmp`,
  );
  try {
    const made = await copyForEdit(file, temp);
    editPictures(tagFiles, temp, `taglib/${ext}`, pos);
    await flushFile(temp);
    await sameFile(temp, made, 'The edited copy was replaced while it was written');
    await sameFile(target, file.stat, 'The track file was replaced while it was edited');
    await fs.rename(temp, target);
    // Makes the rename itself durable. Some file systems refuse to fsync a directory: not fatal.
    await fsyncDir(path.dirname(target)).catch(() => undefined);
    return { dev: made.dev, ino: made.ino };
  } catch (err) {
    await fs.rm(temp, { force: true });
    throw translate(err);
  }
}

/** Copies the opened file's bytes into a new file at `temp` (never an existing one); its identity. */
async function copyForEdit(file: OpenedTrackFile, temp: string): Promise<FileIdentity> {
  // 'wx': never clobber or follow whatever may have the temp name.
  const out = await fs.open(temp, 'wx', file.stat.mode & 0o7777);
  try {
    await out.chmod(file.stat.mode & 0o7777);
    const buffer = Buffer.alloc(1024 * 1024);
    for (let position = 0; ;) {
      const { bytesRead } = await file.handle.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) break;
      await out.write(buffer, 0, bytesRead);
      position += bytesRead;
    }
    const { dev, ino } = await out.stat();
    return { dev, ino };
  } finally {
    await out.close();
  }
}

/** The name `file` (not followed if it is a link) still holds the file of identity `expected`. */
async function sameFile(file: string, expected: FileIdentity, message: string): Promise<void> {
  const now = await fs.lstat(file);
  if (!now.isFile() || now.dev !== expected.dev || now.ino !== expected.ino)
    throw new TrackFileRefused('replaced', message);
}

function editPictures(tagFiles: typeof TagFile, temp: string, mimeType: string, pos: number): void {
  let tagFile: TagFile;
  try {
    tagFile = tagFiles.createFromPath(temp, mimeType);
  } catch (err) {
    throw new PictureEditError('unsupported_format', `Cannot open the file's tags: ${messageOf(err)}`);
  }
  try {
    const pictures = tagFile.tag.pictures;
    if (pos >= pictures.length) {
      throw new PictureEditError(
        'position_out_of_range',
        `No picture at ${pos} (${pictures.length} in file)`,
      );
    }
    tagFile.tag.pictures = pictures.filter((_, i) => i !== pos);
    tagFile.save();
  } finally {
    tagFile.dispose();
  }
}

async function flushFile(file: string): Promise<void> {
  const handle = await fs.open(file, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Permission problems become 'not_writable'; ENOENT and everything else propagate unchanged. */
function translate(err: unknown): unknown {
  const code = errnoCode(err);
  if (code !== undefined && NOT_WRITABLE_CODES.has(code)) {
    return new PictureEditError('not_writable', `The file or its folder cannot be written (${code})`);
  }
  return err;
}
