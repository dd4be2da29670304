import { gzip } from 'node:zlib';
import type { ArtistRecord } from '../../domain/library.js';
import type { Principal } from '../../domain/user.js';
import type { Services } from '../../services/create-services.js';
import type { LibraryCatalog } from '../../services/library-catalog.js';
import { finish, inBackground, WarmUps, type Steps } from '../../services/steps.js';
import { KeptAnswers } from './kept-answers.js';
import { Presenter } from './presenter.js';
import { envelope, render, renderItem, type Format, type Payload } from './render.js';

export const IGNORED_ARTICLES = ['The', 'El', 'La', 'Los', 'Las', 'Le', 'Les'];
const ARTICLE = new RegExp(`^(?:${IGNORED_ARTICLES.join('|')})\\s+`, 'i');

/** The index letter of a name: its first letter after a leading article, upper case; else `#`. */
export function indexKey(name: string): string {
  const first = name.replace(ARTICLE, '').trim().charAt(0).toLocaleUpperCase('en');
  return /\p{L}/u.test(first) ? first : '#';
}

/** The artists under each index letter, letters in order (`#` last), artists by name. */
export function indexGroups(artists: readonly ArtistRecord[]): Array<[string, ArtistRecord[]]> {
  return finish(indexGrouping(artists));
}

/** indexGroups in steps of STEP_ARTISTS artists. */
function* indexGrouping(artists: readonly ArtistRecord[]): Steps<Array<[string, ArtistRecord[]]>> {
  const groups = new Map<string, ArtistRecord[]>();
  for (let i = 0; i < artists.length; i++) {
    const artist = artists[i]!;
    const key = indexKey(artist.name);
    const list = groups.get(key);
    if (list) list.push(artist);
    else groups.set(key, [artist]);
    if ((i + 1) % STEP_ARTISTS === 0) yield;
  }
  return [...groups.entries()].sort(([a], [b]) =>
    a === '#' ? 1 : b === '#' ? -1 : a.localeCompare(b, 'en'),
  );
}

/** getArtists (ArtistID3 under each letter) and getIndexes (the old API's Artist). */
export type IndexMethod = 'getArtists' | 'getIndexes';

/** A whole answer as sent, and where each artist's element (XML) or object (JSON) lies in it. */
interface KeptIndex {
  snapshot: LibraryCatalog;
  body: Buffer;
  type: string;
  /** Byte start and end of the artist at each position (the letter groups' order), two per artist. */
  spans: Int32Array;
  /** `body` gzipped, once the thread pool has made it (`ArtistIndexAnswers.compress`). */
  gzipped?: Buffer;
  compressing?: boolean;
}

/** A whole answer as sent: its bytes, their type, and `gzip` when they are `body` compressed so. */
export interface IndexAnswer {
  body: Buffer;
  type: string;
  encoding?: 'gzip';
}

/** One library snapshot's letter groups, each artist's position in them, and its newest file time. */
interface Shelf {
  snapshot: LibraryCatalog;
  groups: Array<[string, ArtistRecord[]]>;
  order: ArtistRecord[];
  positions: Map<string, number>;
  /** Made at the first getIndexes: a pass over every track. */
  lastModified?: number;
}

/**
 * The fields of an artist that differ by caller: the caller's star and rating, and the household's
 * average rating. The kept answer leaves them out; an artist that has any of them is presented for
 * the caller at each request. A new field of this kind in presenter.ts must be listed here.
 */
const PERSONAL = { starred: undefined, userRating: undefined, averageRating: undefined };

/** Whose answer the kept one is: nobody's, with every personal field left out. */
const NOBODY: Principal = { userId: null, username: null, role: 'Pass', expiresAt: 0, inviteId: null };

/** Enough for the four answers (two methods, two formats) of a library of ~300,000 tracks. */
export const INDEX_BUDGET_BYTES = 32 * 2 ** 20;
/** Artists presented between two yields of a warm-up: a few milliseconds of work. */
const STEP_ARTISTS = 500;
/** Tracks read between two yields when finding the newest file time. */
const STEP_TRACKS = 5_000;
/** zlib's output a piece: a few callbacks on the event loop for an answer, not hundreds. */
const GZIP_CHUNK_BYTES = 256 * 1024;

const marker = (group: number) => `@@melon-index-${group}@@`;
const MARKERS: Record<Format, RegExp> = {
  xml: /<artist>@@melon-index-(\d+)@@<\/artist>/,
  json: /"@@melon-index-(\d+)@@"/,
};

/** Each method's payload around its letter groups (`index`). */
const OUTLINES: Record<IndexMethod, (shelf: Shelf) => (index: Payload[]) => Payload> = {
  getArtists: () => (index) => ({ artists: { ignoredArticles: IGNORED_ARTICLES.join(' '), index } }),
  getIndexes: (shelf) => (index) => ({
    indexes: { ignoredArticles: IGNORED_ARTICLES.join(' '), lastModified: shelf.lastModified, index },
  }),
};

/**
 * getArtists' and getIndexes' answers: every artist of the library, thousands in a collector's
 * library, a megabyte or more that cannot be presented and written per request in a player's
 * patience. Each method's answer in each format is made once per library snapshot, for nobody, and
 * kept as the bytes sent (within a byte budget: the least recently asked goes first). A caller's
 * answer is that one with the few artists they starred, or that someone rated, presented for them
 * and put in place: bytes copied, not a library presented, and no copy kept per user. A new
 * snapshot (a scan or an edit changed the library) drops them all; `warm` makes them again in
 * steps, before a player asks: getArtists in both formats, and whatever else was asked since the
 * server started.
 */
export class ArtistIndexAnswers {
  private shelf: Shelf | undefined;
  private readonly kept: KeptAnswers<KeptIndex>;
  /** Answers being made by a warm-up; a request that needs one finishes it at once. */
  private readonly making = new Map<string, { snapshot: LibraryCatalog; steps: Steps<KeptIndex> }>();
  private readonly wanted = new Set<string>(['getArtists:json', 'getArtists:xml']);
  private readonly warmUps = new WarmUps();
  /** The gzips asked for, one after another (`keep`). */
  private gzipping: Promise<void> = Promise.resolve();

  constructor(
    private readonly services: Services,
    budgetBytes = INDEX_BUDGET_BYTES,
  ) {
    this.kept = new KeptAnswers(
      budgetBytes,
      (index) => index.body.length + index.spans.byteLength + (index.gzipped?.length ?? 0),
    );
  }

  /** The bytes kept now, for every method and format. */
  get keptBytes(): number {
    return this.kept.bytes;
  }

  /** The newest file time of the library (getIndexes' `lastModified`). */
  lastModified(): number {
    return finish(newestOf(this.current()));
  }

  /**
   * The whole subsonic-response of `method` in `format` for `present`'s caller, as sent: gzipped
   * when the caller takes gzip (`gzipOk`) and the kept answer is theirs as it is (nobody's personal
   * fields in it) and already compressed; else as it is.
   */
  answer(method: IndexMethod, format: Format, present: Presenter, gzipOk = false): IndexAnswer {
    const shelf = this.current();
    const key = `${method}:${format}`;
    this.wanted.add(key);
    let kept = this.kept.get(key);
    if (kept?.snapshot !== shelf.snapshot) {
      const making = this.making.get(key);
      this.making.delete(key);
      kept = finish(
        making?.snapshot === shelf.snapshot ? making.steps : this.building(shelf.snapshot, method, format),
      );
      this.keep(key, kept);
    }
    const positions = this.personal(shelf, method, present.caller);
    if (positions.length === 0) {
      if (gzipOk && kept.gzipped) return { body: kept.gzipped, type: kept.type, encoding: 'gzip' };
      return { body: kept.body, type: kept.type };
    }
    const pieces: Buffer[] = [];
    let at = 0;
    for (const position of positions) {
      const artist = shelf.order[position]!;
      pieces.push(kept.body.subarray(at, kept.spans[2 * position]));
      pieces.push(Buffer.from(renderItem(format, 'artist', presentAs(method, present, artist))));
      at = kept.spans[2 * position + 1]!;
    }
    pieces.push(kept.body.subarray(at));
    return { body: Buffer.concat(pieces), type: kept.type };
  }

  /**
   * Makes the wanted answers of the current snapshot that are not kept (and its letter groups), a
   * few milliseconds at a time between requests. Resolves when they are made, or left because the
   * library changed.
   */
  warm(): Promise<void> {
    return this.warmUps.run(async () => {
      const snapshot = this.services.library.snapshot();
      for (const key of [...this.wanted]) {
        if (this.kept.get(key)?.snapshot === snapshot) continue;
        const [method, format] = key.split(':') as [IndexMethod, Format];
        const making = { snapshot, steps: this.building(snapshot, method, format) };
        this.making.set(key, making);
        const kept = await inBackground(
          making.steps,
          // Not when a request finished it, nor for a library that has changed since.
          () => this.making.get(key) === making && this.services.library.snapshot() === snapshot,
        );
        if (this.making.get(key) === making) this.making.delete(key);
        if (kept) this.keep(key, kept);
        else if (this.services.library.snapshot() !== snapshot) return;
      }
    });
  }

  /** Resolves once every gzip asked for so far is done (or given up). */
  compressed(): Promise<void> {
    return this.gzipping;
  }

  /**
   * Keeps an answer, and has the thread pool gzip it: a few megabytes sent as a few hundred
   * kilobytes to a player on Wi-Fi, compressed once per library and not on the event loop. One gzip
   * at a time: after a library change several answers of megabytes would otherwise take the pool's
   * threads together, and audio and cover reads wait on the same pool.
   */
  private keep(key: string, kept: KeptIndex): void {
    this.kept.set(key, kept);
    if (kept.gzipped || kept.compressing) return;
    kept.compressing = true;
    this.gzipping = this.gzipping.then(() => this.compress(key, kept));
  }

  /** Gzips a kept answer, unless it is no longer kept by the time its turn comes. */
  private async compress(key: string, kept: KeptIndex): Promise<void> {
    if (this.kept.peek(key) !== kept) {
      kept.compressing = false;
      return;
    }
    const bytes = await new Promise<Buffer | undefined>((resolve) =>
      gzip(kept.body, { chunkSize: GZIP_CHUNK_BYTES }, (error, result) =>
        resolve(error ? undefined : result),
      ),
    );
    kept.compressing = false;
    if (!bytes || this.kept.peek(key) !== kept) return;
    // Only into room left over: a gzipped copy is worth less than a plain answer, which it must
    // never push out, itself or another (every later request would make that one again).
    kept.gzipped = bytes;
    if (!this.kept.recount(key)) kept.gzipped = undefined;
  }

  /** The letter groups of the current snapshot, made at once if no warm-up made them. */
  private current(): Shelf {
    return finish(this.shelving(this.services.library.snapshot()));
  }

  /** The letter groups of `snapshot`, made in steps unless they are kept; kept once made. */
  private *shelving(snapshot: LibraryCatalog): Steps<Shelf> {
    if (this.shelf?.snapshot === snapshot) return this.shelf;
    const groups = yield* indexGrouping(snapshot.artistsByName());
    const order = groups.flatMap(([, artists]) => artists);
    yield;
    const positions = new Map<string, number>();
    for (let position = 0; position < order.length; position++) {
      positions.set(order[position]!.id, position);
      if ((position + 1) % STEP_ARTISTS === 0) yield;
    }
    // A request may have made them meanwhile; answers of an older snapshot are of no more use.
    if (this.shelf?.snapshot !== snapshot) {
      this.kept.clear();
      this.shelf = { snapshot, groups, order, positions };
    }
    return this.shelf;
  }

  /** Where the artists presented differently for this caller stand, in order. */
  private personal(shelf: Shelf, method: IndexMethod, caller: Principal): number[] {
    const ids = this.services.favourites.list(caller, 'artist').map((item) => item.id);
    if (method === 'getIndexes') ids.push(...this.services.ratings.ratedByAnyone('artist'));
    const positions = new Set<number>();
    for (const id of ids) {
      const position = shelf.positions.get(id);
      if (position !== undefined) positions.add(position);
    }
    return [...positions].sort((a, b) => a - b);
  }

  /**
   * The answer for nobody, and where each artist's piece lies in its bytes; made in steps of
   * STEP_ARTISTS artists, so a warm-up can let requests run between them.
   */
  private *building(snapshot: LibraryCatalog, method: IndexMethod, format: Format): Steps<KeptIndex> {
    const shelf = yield* this.shelving(snapshot);
    const present = new Presenter(this.services, NOBODY);
    if (method === 'getIndexes') yield* newestOf(shelf);
    const outline = OUTLINES[method](shelf);
    const { text, type } = render(
      format,
      envelope(
        'ok',
        this.services.version,
        outline(shelf.groups.map(([name], group) => ({ name, artist: [marker(group)] }))),
      ),
    );
    // The outline with a marker in place of each group's artists: text, group number, text, …
    const parts = text.split(MARKERS[format]);
    const spans = new Int32Array(shelf.order.length * 2);
    const pieces: string[] = [];
    let bytes = 0;
    const add = (piece: string) => {
      pieces.push(piece);
      bytes += Buffer.byteLength(piece);
    };
    let position = 0;
    for (let i = 0; i < parts.length; i++) {
      if (i % 2 === 0) {
        add(parts[i]!);
        continue;
      }
      const artists = shelf.groups[Number(parts[i])]![1];
      for (let k = 0; k < artists.length; k++) {
        if (k > 0 && format === 'json') add(',');
        spans[2 * position] = bytes;
        add(renderItem(format, 'artist', { ...presentAs(method, present, artists[k]!), ...PERSONAL }));
        spans[2 * position + 1] = bytes;
        position += 1;
        if (position % STEP_ARTISTS === 0) yield;
      }
    }
    return { snapshot, body: Buffer.from(pieces.join('')), type, spans };
  }
}

/** The shelf's newest file time, made in steps at its first use. */
function* newestOf(shelf: Shelf): Steps<number> {
  if (shelf.lastModified === undefined) {
    const tracks = shelf.snapshot.tracksByName();
    let newest = 0;
    for (let i = 0; i < tracks.length; i++) {
      newest = Math.max(newest, tracks[i]!.mtimeMs);
      if ((i + 1) % STEP_TRACKS === 0) yield;
    }
    shelf.lastModified = Math.round(newest);
  }
  return shelf.lastModified;
}

function presentAs(method: IndexMethod, present: Presenter, artist: ArtistRecord): Payload {
  return method === 'getArtists' ? present.artist(artist) : present.indexArtist(artist);
}
