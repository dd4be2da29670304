import { describe, expect, it } from 'vitest';
import type { Track } from '../../../../server/contract/library.js';
import { streamUrl } from '../../../../renderer/player/stream-url.js';

const track = (format: string) => ({ id: 't 1', format }) as Track;
/** An <audio> element that plays MP3 and FLAC, as Chromium does, and not WMA or AIFF. */
const element = {
  canPlayType: (type: string) => (type === 'audio/mpeg' || type === 'audio/flac' ? 'probably' : ''),
} as unknown as HTMLAudioElement;

const query = (url: string) => Object.fromEntries(new URL(url, 'http://melon.test').searchParams);

describe('the address the player streams', () => {
  it('plays a format the browser plays as it is, sought in with ranges whatever the position', () => {
    const address = streamUrl(track('flac'), 'tok', element, 42_000);
    expect(address.transcoded).toBe(false);
    expect(address.url.startsWith('/api/tracks/t%201/stream?')).toBe(true);
    expect(query(address.url)).toEqual({ access_token: 'tok' });
  });

  it('transcodes a format it does not play, from the position asked, in whole milliseconds', () => {
    expect(query(streamUrl(track('wma'), 'tok', element).url)).toEqual({
      access_token: 'tok',
      format: 'mp3',
    });
    const later = streamUrl(track('aiff'), 'tok', element, 61_234.4);
    expect(later.transcoded).toBe(true);
    expect(query(later.url)).toEqual({ access_token: 'tok', format: 'mp3', timeOffset: '61.234' });
  });

  it('transcodes when asked to (the original failed to play), even a format the browser names', () => {
    expect(streamUrl(track('mp3'), 'tok', null, 5_000)).toMatchObject({ transcoded: true });
  });
});
