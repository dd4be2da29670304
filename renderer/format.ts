/** Pure formatting and date-range helpers (no DOM) for the settings page. */

/** The page's language (its <html lang>), for numbers and dates. */
const PAGE_LOCALE = typeof document === 'undefined' ? 'en' : document.documentElement.lang || 'en';
const NUMBER = new Intl.NumberFormat(PAGE_LOCALE);

/** Every count the page shows goes through this: "5,832", never "5832". */
export function formatNumber(n: number): string {
  return NUMBER.format(n);
}

/** `3 h 25 min`, `12 min`, `45 s`. */
export function formatDuration(ms: number): string {
  const totalSeconds = Math.round(ms / 1000);
  if (totalSeconds < 60) return `${totalSeconds} s`;
  const totalMinutes = Math.floor(totalSeconds / 60);
  const hours = Math.floor(totalMinutes / 60);
  const minutes = totalMinutes % 60;
  if (hours === 0) return `${minutes} min`;
  if (hours < 24 * 2) return minutes ? `${hours} h ${minutes} min` : `${hours} h`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

/**
 * Every date and time the page shows as a date goes through this: the reader's own locale, day and
 * minute, never seconds ("26 Nov 2026, 18:34" in Britain, "Nov 26, 2026, 6:34 PM" in the US).
 */
const DATE_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return 'never';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : DATE_TIME.format(date);
}

/** `YYYY-MM-DD` in local time: the server reads a date alone as its local midnight. */
export function localDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export type RangeKind = 'week' | 'month' | 'year' | 'all' | 'custom';
export type Step = 'day' | 'week' | 'month';

export const RANGE_KINDS: RangeKind[] = ['week', 'month', 'year', 'all', 'custom'];

export interface RangeQuery {
  /** Absent for "all time": the chart then starts at the first play (listening-time's firstPlayedAt). */
  gtDateTime?: string;
  ltDateTime: string;
}

const DAY_MS = 86_400_000;

/**
 * The stats query for a range, ending now (so the headline and the chart count the same plays).
 * "This week" starts on Monday, "this month" on the 1st, "this year" on 1 January, in local time; a
 * custom range includes both of its days.
 */
export function rangeQuery(
  kind: RangeKind,
  now: Date,
  custom: { from?: string; to?: string } = {},
): RangeQuery {
  const today = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const end = now.toISOString();
  switch (kind) {
    case 'week': {
      const sinceMonday = (today.getDay() + 6) % 7;
      const monday = new Date(today.getFullYear(), today.getMonth(), today.getDate() - sinceMonday);
      return { gtDateTime: localDate(monday), ltDateTime: end };
    }
    case 'month':
      return { gtDateTime: localDate(new Date(today.getFullYear(), today.getMonth(), 1)), ltDateTime: end };
    case 'year':
      return { gtDateTime: localDate(new Date(today.getFullYear(), 0, 1)), ltDateTime: end };
    case 'all':
      return { ltDateTime: end };
    case 'custom': {
      const query: RangeQuery = { ltDateTime: custom.to ? `${custom.to}T23:59:59.999` : end };
      if (custom.from) query.gtDateTime = custom.from;
      return query;
    }
  }
}

/** The chart's step from the span it covers: days up to 92 days, weeks up to two years, then months. */
export function stepFor(fromMs: number, toMs: number): Step {
  const days = (toMs - fromMs) / DAY_MS;
  if (days <= 92) return 'day';
  if (days <= 731) return 'week';
  return 'month';
}

/** `192.168.1.20:14524` from `http://192.168.1.20:14524`. */
export function hostOf(address: string): string {
  try {
    return new URL(address).host;
  } catch {
    return address.replace(/^[a-z]+:\/\//i, '').replace(/\/.*$/, '');
  }
}

/**
 * What the invite QR code encodes: the settings page at the server's network address, with the code
 * after `#` (a fragment never reaches the server or its log). A phone camera opens it as a web
 * page; a device that exchanges codes (GET /auth/code-authenticate?code=XXXX) reads both from it.
 */
export function inviteLink(serverAddress: string, code: string): string {
  return `${originOf(serverAddress)}/admin/#invite?code=${encodeURIComponent(code)}`;
}

/** The settings page's Apps view at the server's network address: what the Apps QR code holds. */
export function appsLink(serverAddress: string): string {
  return `${originOf(serverAddress)}/admin/#apps`;
}

/** `http://192.168.1.20:14524` from an address with or without a scheme or path. */
export function originOf(address: string): string {
  try {
    const url = new URL(address);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin;
  } catch {
    // not a URL: a bare host
  }
  return `http://${hostOf(address)}`;
}

/** "just now", "2 min ago", "3 h ago", "5 days ago", or the date for older times. */
export function formatAgo(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return 'never';
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  if (seconds < 30 * 86_400) {
    const days = Math.floor(seconds / 86_400);
    return `${days} day${days === 1 ? '' : 's'} ago`;
  }
  return formatDateTime(iso);
}

/** The period a range is compared with, and how the headline names it. */
export interface PreviousPeriod {
  query: Required<RangeQuery>;
  label: string;
}

/**
 * The period of the same length just before a range, for the headline's "+18 % vs last month":
 * this week, month or year so far against the same stretch of the one before (1–26 October until
 * 21:00 against 1–26 November until 21:00), clamped to the shorter month's end; a custom range of N
 * days against the N days before it. All time, or a custom range without a start, has none.
 */
export function previousPeriod(
  kind: RangeKind,
  now: Date,
  custom: { from?: string; to?: string } = {},
): PreviousPeriod | null {
  const y = now.getFullYear();
  const m = now.getMonth();
  const d = now.getDate();
  const clock = [now.getHours(), now.getMinutes(), now.getSeconds(), now.getMilliseconds()] as const;
  /** The same day and time in the month `months` back, or that month's last moment. */
  const monthsBack = (months: number) => {
    const lastDay = new Date(y, m - months + 1, 0).getDate();
    return d > lastDay
      ? new Date(y, m - months, lastDay, 23, 59, 59, 999)
      : new Date(y, m - months, d, ...clock);
  };
  switch (kind) {
    case 'week': {
      const monday = d - ((now.getDay() + 6) % 7);
      return {
        query: {
          gtDateTime: localDate(new Date(y, m, monday - 7)),
          ltDateTime: new Date(y, m, d - 7, ...clock).toISOString(),
        },
        label: 'last week',
      };
    }
    case 'month':
      return {
        query: { gtDateTime: localDate(new Date(y, m - 1, 1)), ltDateTime: monthsBack(1).toISOString() },
        label: 'last month',
      };
    case 'year':
      return {
        query: { gtDateTime: localDate(new Date(y - 1, 0, 1)), ltDateTime: monthsBack(12).toISOString() },
        label: 'last year',
      };
    case 'all':
      return null;
    case 'custom': {
      const from = custom.from && /^\d{4}-\d{2}-\d{2}$/.test(custom.from) ? custom.from : null;
      if (!from) return null;
      const [fy, fm, fd] = from.split('-').map(Number) as [number, number, number];
      const to = custom.to && /^\d{4}-\d{2}-\d{2}$/.test(custom.to) ? custom.to : localDate(now);
      const [ty, tm, td] = to.split('-').map(Number) as [number, number, number];
      // Calendar days, counted in UTC so a daylight-saving change does not make one 23 hours long.
      const days = Math.round((Date.UTC(ty, tm - 1, td) - Date.UTC(fy, fm - 1, fd)) / DAY_MS) + 1;
      if (days < 1) return null;
      return {
        query: {
          gtDateTime: localDate(new Date(fy, fm - 1, fd - days)),
          ltDateTime: `${localDate(new Date(fy, fm - 1, fd - 1))}T23:59:59.999`,
        },
        label: days === 1 ? 'the day before' : `the previous ${formatNumber(days)} days`,
      };
    }
  }
}

const PERCENT = new Intl.NumberFormat(PAGE_LOCALE, {
  style: 'percent',
  maximumFractionDigits: 0,
  signDisplay: 'exceptZero',
});

/**
 * "+18 % vs last month": the change from `before` to `now`; null when there is nothing to compare
 * (nothing either time). From nothing to something is not "+∞ %" but "vs none last month".
 */
export function formatChange(now: number, before: number, label: string): string | null {
  if (before === 0) return now === 0 ? null : `vs none ${label}`;
  return `${PERCENT.format((now - before) / before)} vs ${label}`;
}
