/**
 * Reading a track's audio file for playback: its size and modification time, and a stream of its
 * bytes (or of one byte range). The path always comes from the library record, never from a client.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { errnoCode } from '../fs/errno.js';

export interface AudioFileStat {
  size: number;
  mtimeMs: number;
  ino: number;
}

/** The file's size and times; null when it is missing or not a regular file (an unmounted disk). */
export async function statAudioFile(file: string): Promise<AudioFileStat | null> {
  try {
    const info = await stat(file);
    return info.isFile() ? { size: info.size, mtimeMs: info.mtimeMs, ino: info.ino } : null;
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EACCES' || code === 'ELOOP') return null;
    throw error;
  }
}

/**
 * The bytes from `start` to `end` (inclusive), read in 64 KiB chunks as the client takes them:
 * a file is never held in memory whole, and a slow client slows the reading down.
 */
export function readAudioFile(file: string, range?: { start: number; end: number }): Readable {
  return createReadStream(file, { start: range?.start, end: range?.end, highWaterMark: 64 * 1024 });
}

const TYPES: Record<string, string> = {
  mp3: 'audio/mpeg',
  flac: 'audio/flac',
  m4a: 'audio/mp4',
  mp4: 'audio/mp4',
  alac: 'audio/mp4',
  aac: 'audio/aac',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  opus: 'audio/ogg',
  wav: 'audio/wav',
};

/** The media type of a track: from the format the scanner read in it, else from its extension. */
export function audioContentType(format: string, file: string): string {
  return (
    TYPES[format.toLowerCase()] ??
    TYPES[path.extname(file).slice(1).toLowerCase()] ??
    // Every extension the scanner takes is above; an odd format label still plays as bytes.
    'audio/mpeg'
  );
}
