import { StatsIndex } from '../../server/services/stats/stats-index.js';
import type { OutgoingListen } from '../../server/domain/forwarding.js';
import type { PlayLogEntry } from '../../server/domain/play.js';

let logs = 0;

/** One play log of user u1's track t1 (album al1, artist ar1, Rock) at 2024-01-10 12:00 UTC, with `overrides`. */
export function playLog(overrides: Partial<PlayLogEntry> = {}): PlayLogEntry {
  logs += 1;
  return {
    id: `log${logs}`,
    userId: 'u1',
    trackId: 't1',
    albumId: 'al1',
    artistIds: ['ar1'],
    genres: ['Rock'],
    durationMs: 1000,
    device: null,
    type: 'play',
    at: Date.UTC(2024, 0, 10, 12, 0, 0),
    explicitAt: false,
    trackName: 'Track',
    albumName: 'Album',
    artistNames: ['Artist'],
    ...overrides,
  };
}

/** A listen on its way to ListenBrainz: artist "Artist", the given title, at 2023-11-14 22:13:20 UTC plus `second`s. */
export function outgoingListen(title: string, second = 0): OutgoingListen {
  return {
    listenedAt: 1_700_000_000 + second,
    artist: 'Artist',
    title,
    album: null,
    durationMs: null,
    recordingMbid: null,
    releaseMbid: null,
    trackNumber: null,
    client: null,
  };
}

/** A stats index holding `entries`, added in order. */
export function statsIndexOf(
  entries: readonly PlayLogEntry[],
  options?: ConstructorParameters<typeof StatsIndex>[0],
): StatsIndex {
  const index = new StatsIndex(options);
  for (const e of entries) index.add(e);
  return index;
}

/**
 * `count` play logs that touch every part of the stats index: three users, out-of-order times,
 * skips, devices differing only in case, genre tags differing in case and spaces, blank and
 * repeated tags, repeated artists, missing albums and names, odd log ids and a non-finite
 * duration. Deterministic, so an index built from them saves the same bytes every time.
 */
export function makeVariedPlays(count: number): PlayLogEntry[] {
  const genreSets = [['Rock', ' rock '], ['Jazz'], ['ROCK', 'Rock', ''], [], ['jazz', 'Pop']];
  const devices = ['Phone', 'phone', 'Car'];
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const plays: PlayLogEntry[] = [];
  for (let i = 0; i < count; i += 1) {
    const r = random();
    const bytes = Buffer.alloc(16);
    for (let b = 0; b < 16; b += 1) bytes[b] = Math.floor(random() * 256);
    plays.push({
      id: i % 13 === 0 ? `odd-${i}` : bytes.toString('base64url'),
      userId: `u${i % 3}`,
      trackId: `t${Math.floor(random() * 20)}`,
      albumId: i % 7 === 0 ? null : `al${i % 11}`,
      artistIds: i % 5 === 0 ? ['ar1', 'ar2', 'ar1'] : [`ar${i % 9}`],
      genres: genreSets[i % genreSets.length]!,
      durationMs: i % 17 === 0 ? NaN : 1000 + i,
      device: i % 4 === 0 ? null : devices[i % 3]!,
      type: r < 0.2 ? 'skip' : 'play',
      at: Date.UTC(2024, 0, 1) + (r < 0.1 ? -i * 1000 : i * 60_000),
      explicitAt: i % 6 === 0,
      trackName: i % 19 === 0 ? null : `Track ${i}`,
      albumName: i % 23 === 0 ? '' : `Album ${i % 11}`,
      artistNames: i % 5 === 0 ? ['A1', 'A2', 'A1'] : [i % 29 === 0 ? '' : `Artist ${i % 9}`],
    });
  }
  return plays;
}
