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
import { File as TagFile, MpegAudioFileSettings, TagTypes } from 'node-taglib-sharp';
import { fsyncDir } from '../fs/atomic-file.js';
import { errnoCode } from '../fs/errno.js';
import { messageOf } from '../errors.js';

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

// Without this, saving an MP3 adds an ID3v1 tag next to the ID3v2 one. Existing ID3v2 tags keep their
// version because Id3v2Settings.forceDefaultVersion stays false.
MpegAudioFileSettings.defaultTagTypes = TagTypes.Id3v2;

export async function removePicture(file: string, pos: number): Promise<void> {
  const ext = path.extname(file).slice(1).toLowerCase();
  if (!SUPPORTED_EXTENSIONS.has(ext)) {
    await fs.access(file); // a missing file must still report ENOENT, not "unsupported"
    throw new PictureEditError('unsupported_format', `Cannot edit pictures of .${ext} files`);
  }
  if (!Number.isInteger(pos) || pos < 0) {
    throw new PictureEditError('position_out_of_range', `Invalid picture position ${pos}`);
  }
  const temp = path.join(
    path.dirname(file),
    `.${path.basename(file)}.melon-${randomBytes(6).toString('hex')}.tmp`,
  );
  try {
    await copyForEdit(file, temp);
    editPictures(temp, `taglib/${ext}`, pos);
    await flushFile(temp);
    await fs.rename(temp, file);
    // Makes the rename itself durable. Some file systems refuse to fsync a directory: not fatal.
    await fsyncDir(path.dirname(file)).catch(() => undefined);
  } catch (err) {
    await fs.rm(temp, { force: true });
    throw translate(err);
  }
}

async function copyForEdit(file: string, temp: string): Promise<void> {
  const mode = (await fs.stat(file)).mode & 0o7777;
  // COPYFILE_EXCL: never clobber an unrelated file that happens to have the temp name.
  await fs.copyFile(file, temp, fs.constants.COPYFILE_EXCL);
  await fs.chmod(temp, mode);
}

function editPictures(temp: string, mimeType: string, pos: number): void {
  let tagFile: TagFile;
  try {
    tagFile = TagFile.createFromPath(temp, mimeType);
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
