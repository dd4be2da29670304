/** A local calendar year's days (the server's time zone), to place logs by day, month and hour. */
export class YearCalendar {
  /** Local midnights of every day of the year, and the one after its last. */
  readonly starts: number[] = [];
  readonly monthOfDay: number[] = [];

  constructor(readonly year: number) {
    // Each day from its own date rather than a step from the day before: where daylight saving
    // starts at midnight (São Paulo until 2019, Asunción, Havana), that day starts at 01:00, and a
    // step from it would start every later day at 01:00 too.
    for (let day = 1; ; day += 1) {
      const d = new Date(year, 0, day);
      if (d.getFullYear() !== year) break;
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

/** The day with the most plays (the earliest of equals), or null. */
export function mostPlayedDay(dayPlays: readonly number[]): number | null {
  let best = -1;
  for (let d = 0; d < dayPlays.length; d += 1) {
    if (dayPlays[d]! > 0 && (best < 0 || dayPlays[d]! > dayPlays[best]!)) best = d;
  }
  return best < 0 ? null : best;
}

/** The longest run of consecutive days with plays (the earliest of equals), or null. */
export function longestStreak(dayPlays: readonly number[]): { first: number; last: number } | null {
  let best: { first: number; last: number } | null = null;
  let runStart = -1;
  for (let d = 0; d <= dayPlays.length; d += 1) {
    const played = d < dayPlays.length && dayPlays[d]! > 0;
    if (played && runStart < 0) runStart = d;
    if (!played && runStart >= 0) {
      if (!best || d - 1 - runStart > best.last - best.first) best = { first: runStart, last: d - 1 };
      runStart = -1;
    }
  }
  return best;
}
