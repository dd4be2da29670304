import { Interner } from './interner.js';

/** The genre tables under the names the saved index (plays.index) has always used. */
export interface SavedGenres {
  rawGenres: Interner;
  genreSpellings: Interner;
  genreKeys: Interner;
  rawGenreSpelling: number[];
  rawGenreKey: number[];
  spellingKey: number[];
  keySpellings: number[][];
}

/**
 * Genres as tagged, grouped the way the statistics count them: a raw tag is trimmed to a spelling
 * (" Rock " → "Rock"), and spellings that differ only in case form one group ("rock"). A list shows
 * a group under its most played spelling. A blank tag belongs to no group (-1).
 */
export class GenreGroups {
  /** Tags exactly as logged. */
  readonly raw = new Interner();
  /** Trimmed tags. */
  readonly spellings = new Interner();
  /** Lower-cased spellings: one per group. */
  readonly keys = new Interner();
  /** Per raw tag, its spelling and its group (both -1 for a blank tag). */
  readonly rawSpelling: number[] = [];
  readonly rawKey: number[] = [];
  /** Per spelling, its group; per group, its spellings. */
  readonly spellingKey: number[] = [];
  readonly keySpellings: number[][] = [];

  static fromSaved(saved: SavedGenres): GenreGroups {
    return Object.assign(Object.create(GenreGroups.prototype) as GenreGroups, {
      raw: saved.rawGenres,
      spellings: saved.genreSpellings,
      keys: saved.genreKeys,
      rawSpelling: saved.rawGenreSpelling,
      rawKey: saved.rawGenreKey,
      spellingKey: saved.spellingKey,
      keySpellings: saved.keySpellings,
    });
  }

  saved(): SavedGenres {
    return {
      rawGenres: this.raw,
      genreSpellings: this.spellings,
      genreKeys: this.keys,
      rawGenreSpelling: this.rawSpelling,
      rawGenreKey: this.rawKey,
      spellingKey: this.spellingKey,
      keySpellings: this.keySpellings,
    };
  }

  /** The raw tag's index, its spelling and group made on first sight. */
  intern(raw: string): number {
    const idx = this.raw.intern(raw);
    if (idx === this.rawKey.length) {
      const spelling = raw.trim();
      if (spelling === '') {
        this.rawSpelling.push(-1);
        this.rawKey.push(-1);
      } else {
        const spellingIdx = this.spellings.intern(spelling);
        if (spellingIdx === this.spellingKey.length) {
          const keyIdx = this.keys.intern(spelling.toLowerCase());
          this.spellingKey.push(keyIdx);
          (this.keySpellings[keyIdx] ??= []).push(spellingIdx);
        }
        this.rawSpelling.push(spellingIdx);
        this.rawKey.push(this.spellingKey[spellingIdx]!);
      }
    }
    return idx;
  }

  /**
   * The most frequent spelling of group `keyIdx` under `spellingPlays` (plays per spelling); a tie
   * goes to the smallest, so the name is stable.
   */
  spellingOf(keyIdx: number, spellingPlays: Int32Array): string {
    let best = '';
    let bestCount = -1;
    for (const s of this.keySpellings[keyIdx] ?? []) {
      const count = s < spellingPlays.length ? spellingPlays[s]! : 0;
      const value = this.spellings.values[s]!;
      if (count > bestCount || (count === bestCount && value < best)) {
        best = value;
        bestCount = count;
      }
    }
    return best;
  }
}
