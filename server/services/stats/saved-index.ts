import { deserialize, serialize } from 'node:v8';
import type { SavedDevices } from './devices.js';
import type { SavedGenres } from './genres.js';
import { Interner } from './interner.js';
import type { SavedLatest } from './latest-names.js';
import { reviveTallies, type Tallies } from './tally.js';
import { UserColumns } from './user-columns.js';

/**
 * Version of the saved form. Bump it whenever a field below, or one of UserColumns, Tally or
 * Interner, changes meaning or type; an added or removed field is caught without it.
 */
const SAVED_FORMAT = 1;

/** Everything StatsIndex saves (see StatsIndex.save): its tables, and its scratch state too. */
export interface SavedIndex extends SavedGenres, SavedDevices, SavedLatest {
  users: Interner;
  tracks: Interner;
  albums: Interner;
  artists: Interner;
  names: Interner;
  columns: UserColumns[];
  scratch: Tallies;
  total: number;
  inPlaceLimit: number;
  farInsertBudget: number;
  addArtists: number[];
  addArtistNames: number[];
}

/**
 * The saved fields in the order they are written. The order is part of the bytes: plays.index
 * files written before the index was split into modules load, and are written, the same.
 */
const FIELDS = Object.keys({
  users: true,
  tracks: true,
  albums: true,
  artists: true,
  names: true,
  rawGenres: true,
  genreSpellings: true,
  genreKeys: true,
  devices: true,
  deviceKeys: true,
  rawGenreSpelling: true,
  rawGenreKey: true,
  spellingKey: true,
  keySpellings: true,
  deviceKey: true,
  columns: true,
  trackLatestUser: true,
  trackLatestAt: true,
  albumNameIdx: true,
  albumNameAt: true,
  artistNameIdx: true,
  artistNameAt: true,
  scratch: true,
  total: true,
  inPlaceLimit: true,
  farInsertBudget: true,
  addArtists: true,
  addArtistNames: true,
} satisfies Record<keyof SavedIndex, true>) as (keyof SavedIndex)[];

const INTERNERS = [
  'users',
  'tracks',
  'albums',
  'artists',
  'names',
  'rawGenres',
  'genreSpellings',
  'genreKeys',
  'devices',
  'deviceKeys',
] as const satisfies readonly (keyof SavedIndex)[];

export function encodeSavedIndex(index: SavedIndex): Uint8Array {
  const ordered: Partial<Record<keyof SavedIndex, unknown>> = {};
  for (const key of FIELDS) ordered[key] = index[key];
  return serialize({ format: SAVED_FORMAT, index: ordered });
}

/** The saved index in `bytes`, its parts given their classes back; undefined when it is not one this code saved. */
export function decodeSavedIndex(bytes: Uint8Array): SavedIndex | undefined {
  let saved: Record<string, unknown>;
  try {
    const data = deserialize(bytes) as { format?: unknown; index?: Record<string, unknown> };
    if (data.format !== SAVED_FORMAT || typeof data.index !== 'object') return undefined;
    saved = data.index;
  } catch {
    return undefined;
  }
  if (Object.keys(saved).length !== FIELDS.length || !FIELDS.every((key) => key in saved)) return undefined;
  // The serializer keeps data but not classes, so each part gets its class back here.
  for (const key of INTERNERS) Object.setPrototypeOf(saved[key], Interner.prototype);
  for (const columns of saved['columns'] as UserColumns[]) if (columns) UserColumns.revive(columns);
  reviveTallies(saved['scratch'] as Tallies);
  return saved as unknown as SavedIndex;
}
