/**
 * The media type of a track's audio. Its bytes are read only through a checked handle
 * (library/track-file.ts), never by path.
 */
import path from 'node:path';

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
