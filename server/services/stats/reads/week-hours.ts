import type { RowSpan } from './selection.js';
import { SKIP } from '../columns/user-columns.js';

/**
 * Plays per local weekday (0 = Monday) and hour of the day, as the heatmap counts them (play-patterns.ts):
 * `counts[weekday * 24 + hour]`, in the server's time zone.
 */
export const WEEK_HOURS = 7 * 24;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Counts one play at time `at`. */
export function countWeekHour(counts: Uint32Array, at: number): void {
  const date = new Date(at);
  counts[((date.getDay() + 6) % 7) * 24 + date.getHours()]! += 1;
}

/**
 * Counts the plays of a span. The rows are in time order, so Date is asked once per local day (its
 * midnight, weekday and length), not once per row; only on a day that is not 24 hours long (daylight
 * saving changes, two a year at most) is each play's hour asked of Date.
 */
export function countByWeekHour(span: RowSpan, counts: Uint32Array): void {
  const { at, flags, device, accept } = span;
  let dayEnd = -Infinity;
  let weekdayBase = 0;
  let regular = true;
  // Within a 24-hour day the rows' hour only moves on: no division per row.
  let hour = 0;
  let hourEnd = 0;
  for (let row = span.lo; row < span.hi; row += 1) {
    if ((flags[row]! & SKIP) !== 0) continue;
    if (accept && accept[device[row]!] === 0) continue;
    const time = at[row]!;
    if (time >= dayEnd) {
      const date = new Date(time);
      const [y, m, d] = [date.getFullYear(), date.getMonth(), date.getDate()];
      // Each midnight from its own date (where daylight saving starts at midnight, a day starts at 01:00).
      const dayStart = new Date(y, m, d).getTime();
      dayEnd = new Date(y, m, d + 1).getTime();
      weekdayBase = ((date.getDay() + 6) % 7) * 24;
      regular = dayEnd - dayStart === DAY_MS;
      hour = 0;
      hourEnd = dayStart + HOUR_MS;
    }
    if (regular) {
      while (time >= hourEnd) {
        hour += 1;
        hourEnd += HOUR_MS;
      }
      counts[weekdayBase + hour]! += 1;
    } else {
      counts[weekdayBase + new Date(time).getHours()]! += 1;
    }
  }
}
