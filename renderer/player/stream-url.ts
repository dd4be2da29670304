import type { Track } from '../../server/contract/library.js';

/** The types a track's format is sent as, to ask the browser whether it plays them. */
const TYPES: Record<string, string> = {
  mp3: 'audio/mpeg',
  flac: 'audio/flac',
  ogg: 'audio/ogg; codecs="vorbis"',
  opus: 'audio/ogg; codecs="opus"',
  wav: 'audio/wav',
  aac: 'audio/aac',
  // M4A may hold AAC (most browsers play it) or ALAC (few do): the player falls back on an error.
  m4a: 'audio/mp4',
};

/**
 * The address the <audio> element plays: the original when `audio` says the browser can play the
 * format (with ranges, so seeking works), else an MP3 made on the fly (WMA, AIFF, …). `audio` null
 * asks for the transcode. The token goes in the address because an element cannot send a header:
 * it must be a stream token (stream-token.ts), which the server accepts there and nowhere else.
 */
export function streamUrl(track: Track, streamToken: string, audio: HTMLAudioElement | null): string {
  const type = TYPES[track.format];
  const original = audio !== null && type !== undefined && audio.canPlayType(type) !== '';
  const query = new URLSearchParams({ access_token: streamToken });
  if (!original) query.set('format', 'mp3');
  return `/api/tracks/${encodeURIComponent(track.id)}/stream?${query.toString()}`;
}
