/**
 * Parses the ISO 8601 forms the API accepts (docs/API.md, Conventions): `YYYY-MM-DD` (local
 * midnight), `YYYY-MM-DDTHH:MM[:SS[.mmm]]` (local time) and the same with `Z` or `±HH:MM` (exact).
 * Returns epoch milliseconds, or null for anything else, including impossible dates (Feb 30).
 */
const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

export function parseIsoDate(text: string): number | null {
  const match = ISO.exec(text.trim());
  if (!match) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', zone] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  const ms = Number(frac.padEnd(3, '0').slice(0, 3));
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const offset = zone === undefined ? 0 : offsetMinutes(zone);
  if (offset === null) return null;
  if (zone === undefined) {
    // No offset: the server's local time (docs/API.md, Conventions).
    const local = new Date(year, month - 1, day, hour, minute, second, ms);
    local.setFullYear(year); // years 0–99 would otherwise map to 1900–1999
    return local.getTime();
  }
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  const utcDate = new Date(utc);
  utcDate.setUTCFullYear(year);
  return utcDate.getTime() - offset * 60_000;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeap(year) ? 29 : DAYS_IN_MONTH[month - 1]!;
}

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Minutes east of UTC, or null for an offset no place has (beyond ±23:59). */
function offsetMinutes(zone: string): number | null {
  if (zone.toUpperCase() === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2) || '0');
  if (hours > 23 || minutes > 59) return null;
  return sign * (hours * 60 + minutes);
}

/** A step of a chart over time: a local day, a Monday-based week or a month. */
export type DateStep = 'day' | 'week' | 'month';

/** Start (local time) of the day, Monday-based week or month containing `ms`. */
export function stepStart(ms: number, step: DateStep): number {
  const d = new Date(ms);
  d.setHours(0, 0, 0, 0);
  if (step === 'week') d.setDate(d.getDate() - ((d.getDay() + 6) % 7));
  if (step === 'month') d.setDate(1);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/** Start of the step after the one starting at `start`. */
export function nextStep(start: number, step: DateStep): number {
  const d = new Date(start);
  if (step === 'day') d.setDate(d.getDate() + 1);
  else if (step === 'week') d.setDate(d.getDate() + 7);
  else d.setMonth(d.getMonth() + 1, 1);
  // Across a daylight-saving change the clock time can drift; steps start at local midnight.
  d.setHours(0, 0, 0, 0);
  const next = d.getTime();
  // A zone where midnight is skipped must still move forward.
  return next > start ? next : start + 24 * 60 * 60 * 1000;
}
