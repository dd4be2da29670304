import type { GenreGroups } from './genres.js';
import { newTallies, type Kind, type Tallies, type Tally } from './tally.js';
import { SKIP, type UserColumns } from './user-columns.js';

/**
 * Adds row `row` of `u` to `t`: only `kind`, or every kind and the overall sums when no kind is
 * given. Runs once per row of a scan, so it reads the columns directly.
 */
export function tallyRow(t: Tallies, u: UserColumns, row: number, genres: GenreGroups, kind?: Kind): void {
  const all = kind === undefined;
  const play = (u.flags[row]! & SKIP) === 0;
  const ms = u.duration[row]!;
  const at = u.at[row]!;
  if (play && all) {
    t.plays += 1;
    t.ms += ms;
  }
  if (all || kind === 'tracks') t.tracks.bump(u.track[row]!, play, ms, at);
  if ((all || kind === 'albums') && u.album[row]! >= 0) t.albums.bump(u.album[row]!, play, ms, at);
  if (all || kind === 'artists') {
    const start = u.artStart[row]!;
    const end = start + u.artCount[row]!;
    for (let i = start; i < end; i += 1) t.artists.bump(u.artFlat[i]!, play, ms, at);
  }
  if (all || kind === 'genres') {
    const { rawKey, rawSpelling } = genres;
    const start = u.genStart[row]!;
    const end = start + u.genCount[row]!;
    for (let i = start; i < end; i += 1) {
      const raw = u.genFlat[i]!;
      const key = rawKey[raw]!;
      if (key < 0) continue;
      const spelling = rawSpelling[raw]!;
      // A play counts once per genre group, and once per spelling, however often it is tagged.
      let seenKey = false;
      let seenSpelling = false;
      for (let j = start; j < i; j += 1) {
        const other = u.genFlat[j]!;
        if (rawKey[other] === key) seenKey = true;
        if (rawSpelling[other] === spelling) seenSpelling = true;
      }
      if (!seenKey) t.genres.bump(key, play, ms, at);
      if (!seenSpelling && play) t.spellings.bump(spelling, true, ms, at);
    }
  }
}

/**
 * All-time sums of a user, or of one of its devices (`device` a device key, `keyOf` the key of
 * each device name): built by one scan the first time, then kept current by the index's `add`.
 */
export function allTimeSums(
  u: UserColumns,
  device: number | undefined,
  keyOf: number[],
  genres: GenreGroups,
): Tallies {
  if (device === undefined) return u.all;
  let t = u.byDevice.get(device);
  if (!t) {
    t = newTallies();
    for (let row = 0; row < u.n; row += 1) {
      if (keyOf[u.device[row]!] === device) tallyRow(t, u, row, genres);
    }
    u.byDevice.set(device, t);
  }
  return t;
}

/**
 * Sums of one kind over rows [lo, hi) of `u` (of one device key, unless undefined), made in the
 * `scratch` tallies, handed to `read`, then reset so the scratch is clean for the next read.
 */
export function rangeSums<T>(
  scratch: Tallies,
  u: UserColumns,
  [lo, hi]: [number, number],
  device: number | undefined,
  keyOf: number[],
  genres: GenreGroups,
  kind: Kind,
  read: (tally: Tally, spellings: Tally) => T[],
): T[] {
  try {
    for (let row = lo; row < hi; row += 1) {
      if (device !== undefined && keyOf[u.device[row]!] !== device) continue;
      tallyRow(scratch, u, row, genres, kind);
    }
    return read(scratch[kind], scratch.spellings);
  } finally {
    scratch[kind].reset();
    scratch.spellings.reset();
  }
}
