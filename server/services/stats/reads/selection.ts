import type { IndexColumn } from '../columns/columns.js';
import type { UserColumns } from '../columns/user-columns.js';
import type { IndexTables } from '../tables/index-tables.js';
import type { UserTallies } from '../sums/user-tallies.js';
import type { StatsFilter } from './results.js';

/**
 * What a read's filter selects, resolved once: the listener's rows sorted, the rows [lo, hi) of its
 * time range and the device key it matches. Every read starts from one, so none repeats the rules of
 * turning a filter into rows.
 */
export interface Selection {
  readonly u: UserColumns;
  readonly lo: number;
  readonly hi: number;
  /** The device key the filter matches; undefined when it names no device. */
  readonly device: number | undefined;
  /** The range holds every row: all-time sums kept current answer it without a scan. */
  readonly whole: boolean;
}

/** The index's parts a read uses: the shared tables and the sums kept per listener. */
export interface ReadParts {
  readonly tables: IndexTables;
  readonly tallies: UserTallies;
}

/**
 * The selection of `f` over a listener's columns; undefined when nothing can match (no logs of the
 * user, or a device no log names).
 */
export function selectionOf(
  tables: IndexTables,
  u: UserColumns | undefined,
  f: StatsFilter,
): Selection | undefined {
  const device = tables.devices.filter(f.device);
  if (!u || device === null) return undefined;
  u.ensureSorted();
  const [lo, hi] = u.range(f.from, f.to);
  return { u, lo, hi, device, whole: lo === 0 && hi === u.n };
}

/** Per device name index + 1, 1 for a name the selection's device matches; undefined for any device. */
export function acceptedDevices(parts: ReadParts, sel: Selection): Uint8Array | undefined {
  return sel.device === undefined ? undefined : parts.tallies.acceptDevice(sel.device);
}

/** The rows a selection reads, with the devices it accepts (StatsIndex.rowSpan). */
export function spanOf(parts: ReadParts, sel: Selection): RowSpan {
  const { u, lo, hi } = sel;
  return { at: u.at, flags: u.flags, device: u.device, lo, hi, accept: acceptedDevices(parts, sel) };
}

/** Rows [lo, hi) of one user's columns (user-columns.ts), as StatsIndex.rowSpan gives them. */
export interface RowSpan {
  readonly at: Float64Array;
  readonly flags: Uint8Array;
  /** Per row its device name's index + 1; 0 for no device. */
  readonly device: IndexColumn;
  readonly lo: number;
  readonly hi: number;
  /** Per device name index + 1, 1 for a device the filter accepts; undefined for no device filter. */
  readonly accept: Uint8Array | undefined;
}
