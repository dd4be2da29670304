import { isoUtc, MINUTE_MS, type Clock } from '../../clock.js';
import { MIX_IDS, type Mix, type MixId } from '../../contract/mixes.js';
import type { HiddenMixesStore, UsersStore } from '../../domain/ports.js';
import { accountOf, canReadStats, type Principal } from '../../domain/user.js';
import { notFound } from '../../errors.js';
import { nextTurn } from '../next-turn.js';
import { mixTracks, type MixSource } from './mix-rules.js';

/** A mix's name and description, for one listener and for a household. */
const WORDS: Record<MixId, { own: [string, string]; household: [string, string] }> = {
  'mix-top-month': {
    own: ['Your top 50 this month', 'What you played most since the 1st'],
    household: ['Household top 50 this month', 'What the household played most since the 1st'],
  },
  'mix-on-repeat': {
    own: ['On repeat', 'What you keep playing: 3 plays or more in the last 14 days'],
    household: ['On repeat', 'What the household keeps playing: 3 plays or more in the last 14 days'],
  },
  'mix-forgotten': {
    own: ['Forgotten favourites', 'Much played a year or more ago, not once in the last 6 months'],
    household: ['Forgotten favourites', 'Much played a year or more ago, not once in the last 6 months'],
  },
  'mix-household': {
    own: ['Household favourites', 'What the household plays most'],
    household: ['Household favourites', 'What the household plays most'],
  },
  'mix-new': {
    own: ['New to you', 'In the library, never played by you: the newest first'],
    household: ['New to the household', 'In the library, never played here: the newest first'],
  },
  'mix-on-this-day': {
    own: ['On this day', 'What you played on this date in earlier years'],
    household: ['On this day', 'What the household played on this date in earlier years'],
  },
};

/** Made mixes kept at most; a household has a few accounts, each with six mixes. */
const MAX_KEPT = 256;

export function isMixId(id: string): id is MixId {
  return (MIX_IDS as readonly string[]).includes(id);
}

/**
 * Melon's mixes (docs/API.md, Mixes): read-only playlists made from the listening at each read, so
 * they follow the plays as they arrive. A member's mixes are made from their own plays, except
 * "Household favourites"; a Pass account's from the household's. The household is every member whose
 * statistics the caller may read (the statistics' privacy rule).
 */
export class MixService {
  /**
   * Mixes as made, by mix and listeners, with what they were made from: kept until a play is added,
   * the library changes or the minute turns (the ranges move with the clock), so apps that read
   * every playlist again and again do not make each mix again.
   */
  private readonly made = new Map<string, { stamp: string; madeAt: number; trackIds: string[] }>();

  constructor(
    private readonly source: MixSource,
    private readonly users: UsersStore,
    private readonly hiddenMixes: HiddenMixesStore,
    private readonly clock: Clock,
  ) {}

  /**
   * The caller's mixes that have tracks, in a fixed order; hidden ones only with `includeHidden`.
   * A mix made anew lets a turn of the event loop pass before the next one is made: made in one
   * turn, a listener's six first makes would hold the loop for their sum.
   */
  async list(caller: Principal, includeHidden = false): Promise<Mix[]> {
    const hidden = this.hiddenMixes.hidden(accountOf(caller));
    await this.prepare(caller);
    const mixes: Mix[] = [];
    let turnDue = false;
    for (const id of MIX_IDS) {
      if (!includeHidden && hidden.includes(id)) continue;
      if (turnDue) {
        await nextTurn();
        // What the turn may have changed (a scan's new catalog, a recount) is readied again in
        // steps; when nothing changed this costs no turn.
        await this.prepare(caller);
      }
      const { mix, made } = this.make(caller, id, hidden);
      turnDue = made;
      if (mix.trackIds.length > 0) mixes.push(mix);
    }
    return mixes;
  }

  /** One of the caller's mixes, hidden or not, with or without tracks; 404 `mix_not_found` for another id. */
  async get(caller: Principal, id: string): Promise<Mix> {
    const hidden = this.hiddenMixes.hidden(accountOf(caller));
    const mixId = this.mixId(id);
    await this.prepare(caller);
    return this.make(caller, mixId, hidden).mix;
  }

  async setHidden(caller: Principal, id: string, hidden: boolean): Promise<{ id: MixId; hidden: boolean }> {
    const userId = accountOf(caller);
    const mixId = this.mixId(id);
    await this.hiddenMixes.setHidden(userId, mixId, hidden);
    return { id: mixId, hidden };
  }

  /**
   * Readies the ranged reads of everyone whose plays the caller's mixes may read, before the mixes
   * are made synchronously (the reads share scratch sums, so nothing may await between them).
   */
  private async prepare(caller: Principal): Promise<void> {
    for (const userId of this.household(caller)) await this.source.prepare(userId);
  }

  private mixId(id: string): MixId {
    if (!isMixId(id)) throw notFound('mix_not_found', `Mix '${id}' not found`);
    return id;
  }

  /** The mix, and whether it was made now (not kept). */
  private make(caller: Principal, id: MixId, hidden: readonly string[]): { mix: Mix; made: boolean } {
    const self = accountOf(caller);
    const household = caller.role === 'Pass' || id === 'mix-household';
    const listeners = household ? this.household(caller) : [self];
    const [name, description] = WORDS[id][household ? 'household' : 'own'];
    const { trackIds, madeAt, made } = this.tracks(id, listeners);
    const mix = {
      id,
      name,
      description,
      trackIds: [...trackIds],
      household,
      hidden: hidden.includes(id),
      madeAt: isoUtc(madeAt),
    };
    return { mix, made };
  }

  private tracks(
    id: MixId,
    listeners: readonly string[],
  ): { trackIds: string[]; madeAt: number; made: boolean } {
    const now = this.clock.now();
    const key = `${id}\u0000${listeners.join('\u0000')}`;
    const stamp = `${this.source.version()}:${Math.floor(now / MINUTE_MS)}`;
    const kept = this.made.get(key);
    if (kept?.stamp === stamp) return { ...kept, made: false };
    const made = { stamp, madeAt: now, trackIds: mixTracks(this.source, id, listeners, now) };
    if (this.made.size >= MAX_KEPT) this.made.clear();
    this.made.set(key, made);
    return { ...made, made: true };
  }

  /** The accounts whose statistics the caller may read, the caller among them. */
  private household(caller: Principal): string[] {
    return this.users
      .list()
      .filter((user) => canReadStats(caller, user))
      .map((user) => user.id);
  }
}
