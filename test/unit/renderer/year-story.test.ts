import { describe, expect, it } from 'vitest';
import type { YearInReview } from '../../../server/contract/history.js';
import { dayInWords, durationInWords, spanInWords, storyCards } from '../../../renderer/year-story.js';

const HOUR = 3_600_000;

/** A review as the API answers it, with nothing in it unless a test says so. */
function review(overrides: Partial<YearInReview> = {}): YearInReview {
  return {
    year: 2025,
    household: false,
    userIds: ['u1'],
    years: [2025],
    totalMs: 0,
    plays: 0,
    skips: 0,
    skipRate: 0,
    topTracks: [],
    topAlbums: [],
    topArtists: [],
    topGenres: [],
    months: [],
    hours: [],
    mostPlayedDay: null,
    longestStreak: null,
    topTrackOfADay: null,
    newArtists: { count: 0, items: [] },
    firstPlay: null,
    members: [],
    ...overrides,
  };
}

const ranked = (id: string, name: string | null, plays: number, rank = 1) => ({
  rank,
  id,
  name,
  plays,
  listeningMs: plays * 200_000,
});

describe('the year told in words', () => {
  it('says listening time as a person would', () => {
    expect(durationInWords(3 * 24 * HOUR + 2 * HOUR)).toBe('3 days');
    expect(durationInWords(14.4 * HOUR)).toBe('14 hours');
    expect(durationInWords(1.6 * HOUR)).toBe('an hour and a half');
    expect(durationInWords(HOUR)).toBe('an hour');
    expect(durationInWords(25 * 60_000)).toBe('25 minutes');
    expect(durationInWords(10_000)).toBe('a minute');
  });

  it('writes a day and a run of days in words, never as ISO dates', () => {
    expect(dayInWords('2026-04-04')).toBe('Saturday 4 April');
    expect(spanInWords('2025-05-10', '2025-05-16')).toBe('10–16 May');
    expect(spanInWords('2025-02-27', '2025-03-02')).toBe('27 February – 2 March');
  });
});

describe('the story cards', () => {
  it('tells a full year in eight cards, one idea each', () => {
    const cards = storyCards(
      review({
        plays: 1200,
        totalMs: 3 * 24 * HOUR,
        topArtists: [ranked('ar9', 'Unknown Artist', 500), ranked('ar1', 'Aurora Lane', 300, 2)],
        topAlbums: [ranked('al1', 'Northern', 200)],
        mostPlayedDay: { date: '2025-04-04', plays: 40 },
        longestStreak: { days: 12, from: '2025-03-03', to: '2025-03-14' },
        firstPlay: {
          at: new Date(2025, 0, 1, 0, 30).toISOString(),
          track: { id: 't1', name: 'Copper', artists: [{ id: 'ar1', name: 'Aurora Lane' }] },
        },
        topTrackOfADay: {
          date: '2025-04-04',
          plays: 9,
          track: { id: 't0', name: 'Harbour Song', artists: [] },
        },
        newArtists: { count: 7, items: [{ id: 'ar2', name: 'June Parade', plays: 40 }] },
      }),
    );
    expect(cards.map((c) => [c.key, c.headline, c.detail])).toEqual([
      ['time', '3 days of music', '1,200 plays in 2025'],
      // The library's stand-in for untagged files is never the top artist.
      ['artist', 'Aurora Lane', '300 plays'],
      ['album', 'Northern', '200 plays'],
      ['busiest', 'Friday 4 April', '40 plays that day'],
      ['streak', '12 days in a row', '3–14 March'],
      ['first', 'Copper', 'Aurora Lane · Wednesday 1 January at 00:30'],
      ['replayed', 'Harbour Song', 'You played it 9 times on Friday 4 April'],
      ['new-artists', '7 new artists found', 'Among them June Parade'],
    ]);
    expect(cards[1]).toMatchObject({ picture: { kind: 'artist', id: 'ar1' }, link: { artist: 'ar1' } });
    expect(cards[2]).toMatchObject({ picture: { kind: 'album', id: 'al1' }, link: { album: 'al1' } });
  });

  it('leaves out what has nothing to say rather than showing a zero or a one', () => {
    expect(storyCards(review())).toEqual([]);
    const sparse = storyCards(
      review({
        plays: 3,
        totalMs: 9 * 60_000,
        topArtists: [ranked('ar9', 'Unknown Artist', 3)],
        mostPlayedDay: { date: '2025-02-01', plays: 1 },
        longestStreak: { days: 1, from: '2025-02-01', to: '2025-02-01' },
        topTrackOfADay: { date: '2025-02-01', plays: 1, track: { id: 't', name: 'T', artists: [] } },
      }),
    );
    expect(sparse.map((c) => c.key)).toEqual(['time']);
    expect(sparse[0]!.headline).toBe('9 minutes of music');
  });

  it('speaks of the household in a household review', () => {
    const [, replayed] = storyCards(
      review({
        household: true,
        plays: 4,
        totalMs: HOUR,
        topTrackOfADay: { date: '2025-06-01', plays: 2, track: { id: 't', name: 'Tide', artists: [] } },
      }),
    );
    expect(replayed!.detail).toBe('The household played it twice on Sunday 1 June');
  });
});
