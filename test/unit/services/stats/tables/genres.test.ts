import { describe, expect, it } from 'vitest';
import { GenreGroups } from '../../../../../server/services/stats/tables/genres.js';

describe('GenreGroups', () => {
  it('groups tags that differ only in case and surrounding spaces; a blank tag is in no group', () => {
    const genres = new GenreGroups();
    const tags = ['Rock', ' rock ', 'ROCK', 'Jazz', '  ', 'Rock'];
    const raw = tags.map((t) => genres.intern(t));
    expect(raw).toEqual([0, 1, 2, 3, 4, 0]);
    const group = (t: number) => genres.rawKey[t];
    expect(group(raw[0]!)).toBe(group(raw[1]!));
    expect(group(raw[0]!)).toBe(group(raw[2]!));
    expect(group(raw[3]!)).not.toBe(group(raw[0]!));
    expect(group(raw[4]!)).toBe(-1);
    // " rock " is spelt "rock", like a tag "rock" would be.
    expect(genres.spellings.values[genres.rawSpelling[raw[1]!]!]).toBe('rock');
  });

  it('names a group by its most played spelling, a tie by the smallest', () => {
    const genres = new GenreGroups();
    for (const t of ['Rock', 'rock', 'ROCK']) genres.intern(t);
    const key = genres.rawKey[0]!;
    const plays = (rock: number, lower: number, upper: number) => Int32Array.from([rock, lower, upper]);
    expect(genres.spellingOf(key, plays(1, 5, 2))).toBe('rock');
    expect(genres.spellingOf(key, plays(3, 1, 3))).toBe('ROCK');
    // Spellings past the end of the counts have no plays.
    expect(genres.spellingOf(key, new Int32Array(0))).toBe('ROCK');
  });
});
