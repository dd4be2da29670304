/**
 * The lock screen, the notification and the headset buttons, through the Media Session API: what
 * plays, and the actions those controls may ask for. Browsers without the API are left alone.
 */
import type { Track } from '../../server/contract/library.js';

/** What the media keys may ask of the player. */
export interface MediaControls {
  resume(): void;
  pause(): void;
  previous(): void;
  next(): void;
  seek(ms: number): void;
  positionMs(): number;
}

export function answerMediaKeys(controls: MediaControls): void {
  if (!('mediaSession' in navigator)) return;
  const session = navigator.mediaSession;
  const handlers: Array<[MediaSessionAction, MediaSessionActionHandler]> = [
    ['play', () => controls.resume()],
    ['pause', () => controls.pause()],
    ['previoustrack', () => controls.previous()],
    ['nexttrack', () => controls.next()],
    ['seekbackward', () => controls.seek(controls.positionMs() - 10_000)],
    ['seekforward', () => controls.seek(controls.positionMs() + 10_000)],
    ['seekto', (details) => controls.seek((details.seekTime ?? 0) * 1000)],
  ];
  for (const [action, handler] of handlers) {
    try {
      session.setActionHandler(action, handler);
    } catch {
      // An action this browser does not know.
    }
  }
}

/** Shows the track (none: nothing plays) with its cover, once the cover is there. */
export function showInMediaSession(track: Track | null, playing: boolean, coverUrl: string | null): void {
  if (!('mediaSession' in navigator) || typeof MediaMetadata === 'undefined') return;
  navigator.mediaSession.playbackState = track ? (playing ? 'playing' : 'paused') : 'none';
  const title = track?.name ?? '';
  if (navigator.mediaSession.metadata?.title === title && navigator.mediaSession.metadata.artwork.length > 0)
    return;
  navigator.mediaSession.metadata = track
    ? new MediaMetadata({
        title,
        artist: track.artists.map((artist) => artist.name).join(', '),
        album: track.album?.name ?? '',
        artwork: coverUrl ? [{ src: coverUrl, sizes: '512x512' }] : [],
      })
    : null;
}
