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

/** Where the <audio> element is pointed, and whether that is a transcode. */
export interface StreamAddress {
  url: string;
  /**
   * A transcode has no ranges: the element cannot seek in it, and its clock starts at 0 at
   * `offsetMs`. The player seeks by asking for the stream again from the new position.
   */
  transcoded: boolean;
}

/**
 * The address the <audio> element plays: the original when `audio` says the browser can play the
 * format (with ranges, so seeking works), else an MP3 made on the fly (WMA, AIFF, …) starting
 * `offsetMs` into the track. `audio` null asks for the transcode. The token goes in the address
 * because an element cannot send a header: it must be a stream token (stream-token.ts), which the
 * server accepts there and nowhere else.
 */
export function streamUrl(
  track: Track,
  streamToken: string,
  audio: HTMLAudioElement | null,
  offsetMs = 0,
): StreamAddress {
  const type = TYPES[track.format];
  const original = audio !== null && type !== undefined && audio.canPlayType(type) !== '';
  const query = new URLSearchParams({ access_token: streamToken });
  if (!original) {
    query.set('format', 'mp3');
    if (offsetMs > 0) query.set('timeOffset', (Math.round(offsetMs) / 1000).toFixed(3));
  }
  return {
    url: `/api/tracks/${encodeURIComponent(track.id)}/stream?${query.toString()}`,
    transcoded: !original,
  };
}
