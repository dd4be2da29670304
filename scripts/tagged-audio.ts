/**
 * Tagged audio for the fixtures, the scan benches and the hostile-file tests: ffmpeg makes the
 * sound, node-taglib-sharp writes the tags and pictures (ffmpeg cannot attach pictures to Ogg, and
 * one tool for every format keeps the pictures in the same order everywhere).
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import {
  ByteVector,
  File as TagFile,
  MpegAudioFileSettings,
  Picture,
  PictureType,
  TagTypes,
} from 'node-taglib-sharp';

export { PictureType, TagTypes, type Picture, type TagFile };

const run = promisify(execFile);

/** Runs ffmpeg quietly, overwriting its output. */
export async function ffmpeg(args: string[]): Promise<void> {
  await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], { maxBuffer: 16 << 20 });
}

/** A picture of these bytes as given: the tag says what they are, truthfully or not. */
export function pictureOf(
  data: Uint8Array,
  mime: string,
  type: PictureType = PictureType.FrontCover,
  description = 'Cover',
): Picture {
  return Picture.fromFullData(ByteVector.fromByteArray(data), type, mime, description);
}

export async function pictureFromFile(
  file: string,
  mime: string,
  type?: PictureType,
  description?: string,
): Promise<Picture> {
  return pictureOf(await readFile(file), mime, type, description);
}

/** Opens a file's tags, lets `edit` change them, and saves. */
export function editTags(file: string, edit: (tagged: TagFile) => void): void {
  // Without this, saving an MP3 adds an ID3v1 tag next to the ID3v2 one.
  MpegAudioFileSettings.defaultTagTypes = TagTypes.Id3v2;
  const tagged = TagFile.createFromPath(file);
  try {
    edit(tagged);
    tagged.save();
  } finally {
    tagged.dispose();
  }
}
