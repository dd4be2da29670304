import { forEachLog, type LogRows } from '../stats/log-rows.js';

/** A local calendar year's days (the server's time zone), to place logs by day, month and hour. */
export class YearCalendar {
  /** Local midnights of every day of the year, and the one after its last. */
  readonly starts: number[] = [];
  readonly monthOfDay: number[] = [];

  constructor(readonly year: number) {
    for (let d = new Date(year, 0, 1); d.getFullYear() === year; d.setDate(d.getDate() + 1)) {
      this.starts.push(d.getTime());
      this.monthOfDay.push(d.getMonth());
    }
    this.starts.push(new Date(year + 1, 0, 1).getTime());
  }

  get from(): number {
    return this.starts[0]!;
  }

  get to(): number {
    return this.starts[this.starts.length - 1]! - 1;
  }

  get days(): number {
    return this.starts.length - 1;
  }

  /** `YYYY-MM-DD` of a day of the year. */
  dateOf(day: number): string {
    const d = new Date(this.starts[day]!);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  }
}

/** The sums of one pass over a year's logs. */
export interface YearTally {
  plays: number;
  skips: number;
  totalMs: number;
  monthPlays: number[];
  monthMs: number[];
  hourPlays: number[];
  dayPlays: number[];
  /** Plays per track on each day that had plays. */
  dayTracks: Map<number, Map<string, number>>;
}

export function emptyTally(calendar: YearCalendar): YearTally {
  return {
    plays: 0,
    skips: 0,
    totalMs: 0,
    monthPlays: new Array<number>(12).fill(0),
    monthMs: new Array<number>(12).fill(0),
    hourPlays: new Array<number>(24).fill(0),
    dayPlays: new Array<number>(calendar.days).fill(0),
    dayTracks: new Map(),
  };
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Adds one user's logs of the year to the tally in one pass over the time-sorted rows: the day is
 * found by walking the day starts alongside the rows, so no Date is made per log, except on the
 * two days a year whose length is not 24 hours (daylight saving), where the hour is asked of Date.
 */
export function tallyYear(tally: YearTally, calendar: YearCalendar, rows: LogRows | undefined): void {
  const starts = calendar.starts;
  let day = 0;
  let dayTracks: Map<string, number> | undefined;
  forEachLog(rows, calendar.from, calendar.to, (trackId, at, skip, durationMs) => {
    if (skip) {
      tally.skips += 1;
      return;
    }
    if (at >= starts[day + 1]!) {
      while (at >= starts[day + 1]!) day += 1;
      dayTracks = undefined;
    }
    const start = starts[day]!;
    const month = calendar.monthOfDay[day]!;
    const hour =
      starts[day + 1]! - start === DAY_MS ? Math.floor((at - start) / HOUR_MS) : new Date(at).getHours();
    tally.plays += 1;
    tally.totalMs += durationMs;
    tally.monthPlays[month]! += 1;
    tally.monthMs[month]! += durationMs;
    tally.hourPlays[hour]! += 1;
    tally.dayPlays[day]! += 1;
    if (!dayTracks) {
      dayTracks = tally.dayTracks.get(day);
      if (!dayTracks) {
        dayTracks = new Map<string, number>();
        tally.dayTracks.set(day, dayTracks);
      }
    }
    dayTracks.set(trackId, (dayTracks.get(trackId) ?? 0) + 1);
  });
}

/** The day with the most plays (the earliest of equals), or null. */
export function mostPlayedDay(tally: YearTally): number | null {
  let best = -1;
  for (let d = 0; d < tally.dayPlays.length; d += 1) {
    if (tally.dayPlays[d]! > 0 && (best < 0 || tally.dayPlays[d]! > tally.dayPlays[best]!)) best = d;
  }
  return best < 0 ? null : best;
}

/** The longest run of consecutive days with plays (the earliest of equals), or null. */
export function longestStreak(tally: YearTally): { first: number; last: number } | null {
  let best: { first: number; last: number } | null = null;
  let runStart = -1;
  for (let d = 0; d <= tally.dayPlays.length; d += 1) {
    const played = d < tally.dayPlays.length && tally.dayPlays[d]! > 0;
    if (played && runStart < 0) runStart = d;
    if (!played && runStart >= 0) {
      if (!best || d - 1 - runStart > best.last - best.first) best = { first: runStart, last: d - 1 };
      runStart = -1;
    }
  }
  return best;
}

/** The most plays of one track on one day (the earliest day, then the smallest id, of equals). */
export function topTrackOfADay(tally: YearTally): { day: number; trackId: string; plays: number } | null {
  let best: { day: number; trackId: string; plays: number } | null = null;
  const days = [...tally.dayTracks.keys()].sort((a, b) => a - b);
  for (const day of days) {
    for (const [trackId, plays] of tally.dayTracks.get(day)!) {
      if (!best || plays > best.plays || (plays === best.plays && day === best.day && trackId < best.trackId))
        best = { day, trackId, plays };
    }
  }
  return best;
}
