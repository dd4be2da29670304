import { randomFillSync } from 'node:crypto';
import { editTags, ffmpeg, pictureOf, type PictureType } from '../../scripts/tagged-audio.js';

export interface EmbeddedPicture {
  /** Any bytes: the tag says what they are, truthfully or not. */
  data: Uint8Array;
  /** The type the tag declares. */
  mime: string;
  type?: PictureType;
}

/**
 * Writes a one-second MP3 (ffmpeg) carrying exactly these pictures (node-taglib-sharp writes the
 * bytes and the declared type as given: nothing checks that a "picture" is an image).
 */
export async function writeMp3WithPictures(file: string, pictures: EmbeddedPicture[]): Promise<void> {
  await ffmpeg([
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=1',
    '-c:a',
    'libmp3lame',
    '-metadata',
    `title=${file.split('/').pop()}`,
    file,
  ]);
  editTags(file, (tagged) => {
    tagged.tag.pictures = pictures.map((p, i) => pictureOf(p.data, p.mime, p.type, `picture ${i}`));
  });
}

/**
 * A PNG of `bytes` bytes that sniffs as a 4000x4000 image: a valid signature and IHDR, then
 * incompressible filler (a real picture of that size would be as hard to compress).
 */
export function bigPng(bytes: number): Buffer {
  const png = Buffer.alloc(bytes);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(png, 0);
  png.writeUInt32BE(13, 8);
  png.write('IHDR', 12, 'latin1');
  png.writeUInt32BE(4000, 16);
  png.writeUInt32BE(4000, 20);
  randomFillSync(png.subarray(33));
  return png;
}
