/**
 * The year in review told as a story: one card per idea, in words a household reads at a glance
 * ("3 days of music", "Saturday 4 April"). Pure (no DOM), so the page and the saved picture tell
 * the same story from one list.
 */
import type { YearInReview } from '../server/contract/history.js';
import { formatNumber } from './format.js';

export interface StoryCard {
  key: 'time' | 'artist' | 'album' | 'busiest' | 'streak' | 'first' | 'replayed' | 'new-artists';
  /** What the card is about ("Top artist"). */
  title: string;
  /** The one idea, large ("3 days of music"). */
  headline: string;
  /** The figures behind it, small. */
  detail: string;
  picture?: { kind: 'artist' | 'album'; id: string };
  /** What the card opens in Listen. */
  link?: { album?: string; artist?: string };
}

const UNKNOWN_ARTIST = 'Unknown Artist';
const DATES = 'en-GB';
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

const times = (n: number) => (n === 1 ? 'once' : n === 2 ? 'twice' : `${formatNumber(n)} times`);
const playsText = (n: number) => `${formatNumber(n)} ${n === 1 ? 'play' : 'plays'}`;

/** Listening time as a person says it: "3 days", "14 hours", "25 minutes". */
export function durationInWords(ms: number): string {
  if (ms >= 2 * DAY_MS) return `${formatNumber(Math.round(ms / DAY_MS))} days`;
  if (ms >= 2 * HOUR_MS) return `${formatNumber(Math.round(ms / HOUR_MS))} hours`;
  if (ms >= 90 * 60_000) return 'an hour and a half';
  if (ms >= 60 * 60_000) return 'an hour';
  const minutes = Math.max(1, Math.round(ms / 60_000));
  return minutes === 1 ? 'a minute' : `${minutes} minutes`;
}

/** A local `YYYY-MM-DD` as "Saturday 4 April". */
export function dayInWords(date: string): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(y!, m! - 1, d).toLocaleDateString(DATES, {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
  });
}

/** A run of days as "3–14 March" or "28 February – 2 March". */
export function spanInWords(from: string, to: string): string {
  const [fy, fm, fd] = from.split('-').map(Number);
  const [ty, tm, td] = to.split('-').map(Number);
  const start = new Date(fy!, fm! - 1, fd);
  const end = new Date(ty!, tm! - 1, td);
  const long = (date: Date) => date.toLocaleDateString(DATES, { day: 'numeric', month: 'long' });
  return fm === tm ? `${start.getDate()}–${long(end)}` : `${long(start)} – ${long(end)}`;
}

const artistsOf = (track: { artists: Array<{ name: string | null }> }) =>
  track.artists.map((a) => a.name ?? 'unknown artist').join(', ');

/**
 * The cards worth showing for a review. A card with nothing to say is left out rather than shown
 * with a zero: a busiest day of one play, a streak of one day, a track played once in a day.
 */
export function storyCards(r: YearInReview): StoryCard[] {
  if (r.plays === 0) return [];
  const cards: StoryCard[] = [
    {
      key: 'time',
      title: 'Time listening',
      headline: `${durationInWords(r.totalMs)} of music`,
      detail: `${playsText(r.plays)} in ${r.year}`,
    },
  ];
  // The library's stand-in for untagged files is nobody's favourite.
  const artist = r.topArtists.find((a) => a.name !== null && a.name !== UNKNOWN_ARTIST);
  if (artist)
    cards.push({
      key: 'artist',
      title: 'Top artist',
      headline: artist.name!,
      detail: playsText(artist.plays),
      picture: { kind: 'artist', id: artist.id },
      link: { artist: artist.id },
    });
  const album = r.topAlbums[0];
  if (album?.name)
    cards.push({
      key: 'album',
      title: 'Top album',
      headline: album.name,
      detail: playsText(album.plays),
      picture: { kind: 'album', id: album.id },
      link: { album: album.id },
    });
  if (r.mostPlayedDay && r.mostPlayedDay.plays > 1)
    cards.push({
      key: 'busiest',
      title: 'Busiest day',
      headline: dayInWords(r.mostPlayedDay.date),
      detail: `${playsText(r.mostPlayedDay.plays)} that day`,
    });
  if (r.longestStreak && r.longestStreak.days > 1)
    cards.push({
      key: 'streak',
      title: 'Longest streak',
      headline: `${formatNumber(r.longestStreak.days)} days in a row`,
      detail: spanInWords(r.longestStreak.from, r.longestStreak.to),
    });
  if (r.firstPlay) {
    const at = new Date(r.firstPlay.at);
    const day = at.toLocaleDateString(DATES, { weekday: 'long', day: 'numeric', month: 'long' });
    const time = at.toLocaleTimeString(DATES, { hour: '2-digit', minute: '2-digit' });
    cards.push({
      key: 'first',
      title: `First play of ${r.year}`,
      headline: r.firstPlay.track.name ?? 'A track',
      detail: [artistsOf(r.firstPlay.track), `${day} at ${time}`].filter(Boolean).join(' · '),
    });
  }
  if (r.topTrackOfADay && r.topTrackOfADay.plays > 1)
    cards.push({
      key: 'replayed',
      title: 'On repeat',
      headline: r.topTrackOfADay.track.name ?? 'A track',
      detail: `${r.household ? 'The household' : 'You'} played it ${times(r.topTrackOfADay.plays)} on ${dayInWords(r.topTrackOfADay.date)}`,
    });
  if (r.newArtists.count > 0) {
    const names = r.newArtists.items
      .slice(0, 3)
      .map((a) => a.name)
      .filter((name): name is string => name !== null);
    cards.push({
      key: 'new-artists',
      title: 'New artists',
      headline: `${formatNumber(r.newArtists.count)} new ${r.newArtists.count === 1 ? 'artist' : 'artists'} found`,
      detail: names.length > 0 ? `Among them ${names.join(', ')}` : `First heard in ${r.year}`,
    });
  }
  return cards;
}
