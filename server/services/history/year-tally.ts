import { capacityFor, grown } from '../stats/columns/columns.js';
import type { LogRows } from '../stats/columns/log-rows.js';
import { SKIP } from '../stats/columns/user-columns.js';
import type { YearCalendar } from './year-calendar.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * The sums of a year's logs of one or more members (members summed), made by `add` a stretch of
 * days at a time, so a caller may let other work run between stretches.
 */
export class YearTally {
  plays = 0;
  skips = 0;
  totalMs = 0;
  readonly monthPlays = new Array<number>(12).fill(0);
  readonly monthMs = new Array<number>(12).fill(0);
  readonly hourPlays = new Array<number>(24).fill(0);
  readonly hourMs = new Array<number>(24).fill(0);
  readonly dayPlays: number[];
  /** Plays and listening time per member, in the order of the members given to `add`. */
  memberPlays: number[] = [];
  memberMs: number[] = [];
  /** The most plays of one track on one day (the earliest day, then the smallest id, of equals). */
  dayTop: { day: number; trackId: string; plays: number } | null = null;
  /**
   * Plays per snapshot of the index (`LogRows.snapshots`), for the artists of the year. Read whole
   * rather than through a list of the snapshots played: a year has more rows than the index has
   * snapshots, and a list costs a branch per row.
   */
  snapshotPlays = new Int32Array(0);
  /** Plays per track (by the index's number) of the day being counted; zero between days. */
  private trackPlays = new Int32Array(0);
  /** The tracks with plays in `trackPlays`. */
  private readonly dayTracks: number[] = [];

  constructor(private readonly calendar: YearCalendar) {
    this.dayPlays = new Array<number>(calendar.days).fill(0);
  }

  /**
   * Adds the members' logs of days [first, end) of the year, a day at a time: each member's rows of
   * the day are read straight from its time-sorted columns (no object per row) and counted per track
   * in one array cleared at the day's end, so the day's top track needs no map; the day, month and
   * hour come from the calendar's day starts. Only on a day whose length is not 24 hours (daylight
   * saving, two a year at most) is a log's hour asked of Date. The rows are looked up afresh by time
   * at each call, so logs added between calls cannot shift a member's place.
   */
  add(members: ReadonlyArray<LogRows | undefined>, first: number, end: number): void {
    const { starts, monthOfDay, days, to } = this.calendar;
    const cursors: Array<{ rows: LogRows; row: number; end: number; member: number }> = [];
    while (this.memberPlays.length < members.length) {
      this.memberPlays.push(0);
      this.memberMs.push(0);
    }
    for (const [member, rows] of members.entries()) {
      if (!rows) continue;
      const row = rows.columns.lowerBound(starts[first]!);
      const last = end < days ? rows.columns.lowerBound(starts[end]!) : rows.columns.upperBound(to);
      if (row < last) cursors.push({ rows, row, end: last, member });
    }
    if (cursors.length === 0) return;
    // One index holds every member's rows: its track and snapshot numbers are shared.
    const { trackIds, snapshots } = cursors[0]!.rows;
    this.makeRoom(trackIds.length, snapshots.count);
    const { hourPlays, hourMs, snapshotPlays, trackPlays, dayTracks } = this;
    for (let day = first; day < end; day += 1) {
      const start = starts[day]!;
      const next = starts[day + 1]!;
      const regular = next - start === DAY_MS;
      let plays = 0;
      let ms = 0;
      for (const cursor of cursors) {
        const playsBefore = plays;
        const msBefore = ms;
        const { at, snap, flags } = cursor.rows.columns;
        const { track, duration } = cursor.rows.snapshots;
        // The rows are in time order, so the hour only moves on: no division per row.
        let hour = 0;
        let hourEnd = start + HOUR_MS;
        let row = cursor.row;
        for (; row < cursor.end; row += 1) {
          const time = at[row]!;
          if (time >= next) break;
          if (flags[row]! & SKIP) {
            this.skips += 1;
            continue;
          }
          const s = snap[row]!;
          const t = track[s]!;
          const length = duration[s]!;
          plays += 1;
          ms += length;
          if (regular) {
            while (time >= hourEnd) {
              hour += 1;
              hourEnd += HOUR_MS;
            }
          } else {
            hour = new Date(time).getHours();
          }
          hourPlays[hour]! += 1;
          hourMs[hour]! += length;
          const trackCount = trackPlays[t]!;
          trackPlays[t] = trackCount + 1;
          if (trackCount === 0) dayTracks.push(t);
          snapshotPlays[s]! += 1;
        }
        cursor.row = row;
        this.memberPlays[cursor.member]! += plays - playsBefore;
        this.memberMs[cursor.member]! += ms - msBefore;
      }
      if (plays === 0) continue;
      const month = monthOfDay[day]!;
      this.plays += plays;
      this.totalMs += ms;
      this.dayPlays[day] = plays;
      this.monthPlays[month]! += plays;
      this.monthMs[month]! += ms;
      this.endDay(day, trackIds);
    }
  }

  /** Notes the day's top track if it takes the lead, and clears the day's counts. */
  private endDay(day: number, trackIds: readonly string[]): void {
    const { trackPlays, dayTracks } = this;
    // Only a day with more plays of one track than every earlier day takes the lead, so ids are
    // compared (for the smallest of equals) on those few days alone.
    let most = 0;
    for (const t of dayTracks) if (trackPlays[t]! > most) most = trackPlays[t]!;
    if (most > (this.dayTop?.plays ?? 0)) {
      let best = -1;
      for (const t of dayTracks) {
        if (trackPlays[t] === most && (best < 0 || trackIds[t]! < trackIds[best]!)) best = t;
      }
      this.dayTop = { day, trackId: trackIds[best]!, plays: most };
    }
    for (const t of dayTracks) trackPlays[t] = 0;
    dayTracks.length = 0;
  }

  /** Room in the per-track and per-snapshot counts for every track and snapshot the index has now. */
  private makeRoom(tracks: number, snapshots: number): void {
    if (tracks > this.trackPlays.length)
      this.trackPlays = grown(this.trackPlays, capacityFor(tracks, this.trackPlays.length));
    if (snapshots > this.snapshotPlays.length)
      this.snapshotPlays = grown(this.snapshotPlays, capacityFor(snapshots, this.snapshotPlays.length));
  }
}
