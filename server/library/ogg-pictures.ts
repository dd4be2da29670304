/**
 * The pictures of an Ogg Vorbis or Opus file, from the METADATA_BLOCK_PICTURE fields of its comment
 * header: base64 of a FLAC picture block. Read here rather than by music-metadata, whose decoding of
 * the base64 goes a character at a time in JavaScript and costs more than the rest of a scan of the
 * file; Node decodes it natively.
 */
import { withWindow, type ByteSource, type FileWindow } from './file-window.js';

export interface OggPicture {
  /** The picture type of ID3v2 and FLAC (3 is the front cover). */
  type: number;
  /** The media type the file declares (never trusted for serving: the bytes are sniffed). */
  mime: string;
  data: Buffer;
}

const PAGE_HEADER = 27;
/** A comment header larger than this (a 16 MiB cover) is not read: no pictures are listed. */
const MAX_COMMENT_BYTES = 16 * 1024 * 1024;

/** The comment header's pieces, gathered from the segments of the pages it spans. */
class CommentJoin {
  private parts: Buffer[] = [];
  private packet = 0;
  private bytes = 0;
  /** The joined packet once its last segment was seen; null when it is too large or cut short. */
  result: Buffer | null | undefined = undefined;

  /** Takes one page's segments (its lacing values and body): one piece of the page at most. */
  add(lacing: Buffer, body: Buffer): void {
    let from = this.packet === 1 ? 0 : -1;
    let at = 0;
    for (let i = 0; i < lacing.length; i++) {
      const n = lacing[i]!;
      at += n;
      // A segment shorter than 255 bytes ends its packet.
      if (n === 255) continue;
      if (this.packet === 1) {
        this.take(body, from, at);
        if (this.result !== null) this.result = Buffer.concat(this.parts);
        return;
      }
      this.packet++;
      if (this.packet === 1) from = at;
    }
    if (from >= 0) this.take(body, from, at);
  }

  private take(body: Buffer, from: number, to: number): void {
    this.bytes += to - from;
    if (this.bytes > MAX_COMMENT_BYTES || to > body.length) this.result = null;
    else this.parts.push(body.subarray(from, to));
  }
}

function total(lacing: Buffer): number {
  let sum = 0;
  for (const n of lacing) sum += n;
  return sum;
}

/**
 * The second packet of the first logical stream (the comment header), joined from its pages by
 * their segment tables; null when the file ends first or it is too large. The loop over a page's
 * segments is in CommentJoin, outside this async function: a hot loop in an async function has V8
 * compile the whole of it with its optimizing compiler, at a cost the first Ogg files of a scan pay.
 */
async function commentPacket(window: FileWindow): Promise<Buffer | null> {
  const join = new CommentJoin();
  let serial: number | null = null;
  for (let pos = 0; pos < 2 * MAX_COMMENT_BYTES;) {
    const header = window.peek(pos, PAGE_HEADER + 255) ?? (await window.read(pos, PAGE_HEADER + 255));
    if (header.length < PAGE_HEADER || header.toString('latin1', 0, 4) !== 'OggS') return null;
    const segments = header[26]!;
    if (header.length < PAGE_HEADER + segments) return null;
    const pageSerial = header.readUInt32LE(14);
    serial ??= pageSerial;
    const lacing = header.subarray(PAGE_HEADER, PAGE_HEADER + segments);
    const bodyLength = total(lacing);
    const bodyStart = pos + PAGE_HEADER + segments;
    pos = bodyStart + bodyLength;
    if (pageSerial !== serial) continue; // another stream's page, interleaved
    join.add(lacing, window.peek(bodyStart, bodyLength) ?? (await window.read(bodyStart, bodyLength)));
    if (join.result !== undefined) return join.result;
  }
  return null;
}

/** The FLAC picture block in `block`; null when it is cut short. */
function pictureBlock(block: Buffer): OggPicture | null {
  if (block.length < 32) return null;
  const type = block.readUInt32BE(0);
  const mimeLength = block.readUInt32BE(4);
  let at = 8 + mimeLength;
  if (at + 4 > block.length) return null;
  const mime = block.toString('latin1', 8, at);
  at += 4 + block.readUInt32BE(at); // description
  at += 16; // width, height, colour depth, palette size: the bytes are measured instead
  if (at + 4 > block.length) return null;
  const length = block.readUInt32BE(at);
  at += 4;
  if (at + length > block.length) return null;
  return { type, mime, data: block.subarray(at, at + length) };
}

/** The fields of a comment header named METADATA_BLOCK_PICTURE, decoded, in their order. */
export function commentPictures(packet: Buffer): OggPicture[] {
  let at: number;
  if (packet.toString('latin1', 0, 7) === '\x03vorbis') at = 7;
  else if (packet.toString('latin1', 0, 8) === 'OpusTags') at = 8;
  else return [];
  const pictures: OggPicture[] = [];
  if (at + 4 > packet.length) return pictures;
  at += 4 + packet.readUInt32LE(at); // vendor
  if (at + 4 > packet.length) return pictures;
  const count = packet.readUInt32LE(at);
  at += 4;
  const key = 'metadata_block_picture=';
  for (let i = 0; i < count && at + 4 <= packet.length; i++) {
    const length = packet.readUInt32LE(at);
    const start = at + 4;
    at = start + length;
    if (at > packet.length) break;
    if (packet.toString('latin1', start, start + key.length).toLowerCase() !== key) continue;
    const picture = pictureBlock(Buffer.from(packet.toString('latin1', start + key.length, at), 'base64'));
    if (picture) pictures.push(picture);
  }
  return pictures;
}

/** The pictures of the Ogg file, in their order in its comment header. */
export function oggPictures(file: ByteSource): Promise<OggPicture[]> {
  return withWindow(file, async (window) => {
    const packet = await commentPacket(window);
    return packet ? commentPictures(packet) : [];
  });
}
