import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../server/clock.js';
import { MIX_IDS, type MixId } from '../../../../server/contract/mixes.js';
import type { LibraryIndex } from '../../../../server/domain/library.js';
import type { Principal, UserRecord } from '../../../../server/domain/user.js';
import { MixService } from '../../../../server/services/mixes/mix-service.js';
import { makeUserRecord, principalOf } from '../../../factories/accounts.js';
import { makeLibrary } from '../../../factories/library.js';
import { playLog } from '../../../factories/plays.js';
import { newTestService } from '../../../fakes/test-service.js';
import { problemOf } from '../../../support/problem-of.js';

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2026, 10, 20, 15, 30);

/**
 * Tracks t0–t58, each file a day newer than the one before, so "newest first" is t58 … t0; t59 was
 * played but is no longer in the library.
 */
function library(): LibraryIndex {
  const index = makeLibrary({
    artists: [{ id: 'ar1' }],
    albums: [{ id: 'al1', artistIds: ['ar1'] }],
    tracks: Array.from({ length: 59 }, (_, i) => ({ id: `t${i}`, artistIds: ['ar1'] })),
  });
  index.tracks.forEach((track, i) => (track.mtimeMs = Date.UTC(2025, 0, 1) + i * DAY));
  return index;
}

interface Listen {
  userId: string;
  trackId: string;
  at: number;
  skip: boolean;
}

/** A seeded generator, so every run logs the same plays. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/**
 * Plays that give every mix something to pick and to leave out: an old favourite era (t40–t45, two
 * and a half years ago, some of it played again lately), steady listening skewed to a few tracks,
 * a burst in the last two weeks, plays on this date in earlier years, skips, and a track (t59) no
 * longer in the library.
 */
function listensOf(userId: string, seed: number): Listen[] {
  const next = random(seed);
  const listens: Listen[] = [];
  const add = (trackId: string, at: number, skip = false) => listens.push({ userId, trackId, at, skip });
  for (let i = 0; i < 120; i += 1) add(`t${40 + Math.floor(next() * 6)}`, NOW - 900 * DAY + i * 3 * DAY);
  for (let i = 0; i < 400; i += 1) {
    const track = Math.floor(next() ** 2 * 40);
    add(`t${track}`, NOW - Math.floor(next() * 1000 * DAY), next() < 0.1);
  }
  for (let i = 0; i < 60; i += 1) add(`t${Math.floor(next() * 12)}`, NOW - Math.floor(next() * 14 * DAY));
  for (let i = 0; i < 8; i += 1) add(`t${50 + (i % 5)}`, NOW - 365 * DAY - 3 * 60 * 60 * 1000 + i * 1000);
  add('t55', Date.UTC(2024, 10, 20, 0, 0));
  add('t56', Date.UTC(2024, 10, 20, 23, 59, 59, 999));
  add('t57', Date.UTC(2024, 10, 21, 0, 0));
  add('t58', Date.UTC(2023, 10, 20, 10), true);
  add('t59', Date.UTC(2022, 10, 20, 10));
  add('t44', NOW - 20 * DAY);
  add('t59', NOW - 2 * DAY);
  return listens;
}

/** Plays per track of the listens, ranked as the statistics rank: plays, the later latest play, id. */
function ranked(listens: readonly Listen[]): Array<{ id: string; plays: number; last: number }> {
  const sums = new Map<string, { id: string; plays: number; last: number }>();
  for (const l of listens) {
    if (l.skip) continue;
    const sum = sums.get(l.trackId) ?? { id: l.trackId, plays: 0, last: -Infinity };
    sum.plays += 1;
    sum.last = Math.max(sum.last, l.at);
    sums.set(l.trackId, sum);
  }
  return [...sums.values()].sort((a, b) => b.plays - a.plays || b.last - a.last || (a.id < b.id ? -1 : 1));
}

/** Each mix's rule, written out plainly over the listens (docs/API.md, Mixes). */
function reference(
  id: MixId,
  all: readonly Listen[],
  listeners: readonly string[],
  lib: LibraryIndex,
): string[] {
  const mine = all.filter((l) => listeners.includes(l.userId));
  const inLibrary = (trackId: string) => lib.tracks.some((t) => t.id === trackId);
  const ids = (items: Array<{ id: string }>, size: number) =>
    items
      .map((item) => item.id)
      .filter(inLibrary)
      .slice(0, size);
  const now = new Date(NOW);
  switch (id) {
    case 'mix-top-month': {
      const from = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
      return ids(ranked(mine.filter((l) => l.at >= from && l.at <= NOW)), 50);
    }
    case 'mix-on-repeat':
      return ids(
        ranked(mine.filter((l) => l.at >= NOW - 14 * DAY)).filter((item) => item.plays >= 3),
        25,
      );
    case 'mix-forgotten': {
      const lately = new Set(mine.filter((l) => !l.skip && l.at >= NOW - 183 * DAY).map((l) => l.trackId));
      return ids(
        ranked(mine.filter((l) => l.at <= NOW - 365 * DAY)).filter(
          (item) => item.plays >= 5 && !lately.has(item.id),
        ),
        50,
      );
    }
    case 'mix-household':
      return ids(ranked(mine), 50);
    case 'mix-new': {
      const played = new Set(mine.filter((l) => !l.skip).map((l) => l.trackId));
      return [...lib.tracks]
        .sort((a, b) => b.mtimeMs - a.mtimeMs)
        .map((t) => t.id)
        .filter((t) => !played.has(t))
        .slice(0, 50);
    }
    case 'mix-on-this-day': {
      const sameDay = (at: number) => {
        const d = new Date(at);
        return (
          d.getUTCMonth() === now.getUTCMonth() &&
          d.getUTCDate() === now.getUTCDate() &&
          d.getUTCFullYear() < now.getUTCFullYear()
        );
      };
      return ids(ranked(mine.filter((l) => sameDay(l.at))), 50);
    }
  }
}

async function household() {
  const lib = library();
  const clock = new ManualClock(NOW);
  const { sut, fakes } = newTestService(MixService, { library: lib, clock });
  const alice = makeUserRecord({ publicStats: true });
  const bob = makeUserRecord({ publicStats: true });
  const carol = makeUserRecord({ publicStats: false });
  const admin = makeUserRecord({ role: 'Admin' });
  const guest = makeUserRecord({ role: 'Pass' });
  for (const user of [alice, bob, carol, admin, guest]) await fakes.users.add(user);
  const listens = [...listensOf(alice.id, 1), ...listensOf(bob.id, 2), ...listensOf(carol.id, 3)];
  for (const l of listens) {
    await fakes.plays.append(
      playLog({ userId: l.userId, trackId: l.trackId, at: l.at, type: l.skip ? 'skip' : 'play' }),
    );
  }
  return { sut, fakes, clock, lib, listens, alice, bob, carol, admin, guest };
}

const idsOf = async (sut: MixService, caller: Principal, id: MixId) => (await sut.get(caller, id)).trackIds;

describe('mixes', () => {
  it('gives a member each mix made from their own plays, as the rules over their listens say', async () => {
    const { sut, lib, listens, alice } = await household();
    for (const id of MIX_IDS) {
      if (id === 'mix-household') continue;
      const expected = reference(id, listens, [alice.id], lib);
      expect(expected.length, id).toBeGreaterThan(0);
      expect(await idsOf(sut, principalOf(alice), id), id).toEqual(expected);
      expect((await sut.get(principalOf(alice), id)).household).toBe(false);
    }
  });

  it('makes Household favourites from every member whose statistics the caller may read', async () => {
    const { sut, lib, listens, alice, bob, carol, admin } = await household();
    const asAlice = await idsOf(sut, principalOf(alice), 'mix-household');
    // Carol keeps her statistics private: her plays stay out of the others' mixes, not the Admin's.
    expect(asAlice).toEqual(reference('mix-household', listens, [alice.id, bob.id], lib));
    expect(await idsOf(sut, principalOf(carol), 'mix-household')).toEqual(
      reference('mix-household', listens, [alice.id, bob.id, carol.id], lib),
    );
    expect(await idsOf(sut, principalOf(admin), 'mix-household')).toEqual(
      reference('mix-household', listens, [alice.id, bob.id, carol.id, admin.id], lib),
    );
  });

  it("gives a Pass account the household's mixes", async () => {
    const { sut, lib, listens, alice, bob, guest } = await household();
    for (const id of MIX_IDS) {
      const mix = await sut.get(principalOf(guest), id);
      expect(mix.household, id).toBe(true);
      expect(mix.trackIds, id).toEqual(reference(id, listens, [alice.id, bob.id, guest.id], lib));
    }
    expect((await sut.get(principalOf(guest), 'mix-new')).name).toBe('New to the household');
  });

  it('never puts a track gone from the library in a mix', async () => {
    const { sut, alice } = await household();
    for (const mix of await sut.list(principalOf(alice))) expect(mix.trackIds, mix.id).not.toContain('t59');
  });

  it('follows new plays at once', async () => {
    const { sut, fakes, alice } = await household();
    const before = await idsOf(sut, principalOf(alice), 'mix-on-repeat');
    expect(before).not.toContain('t30');
    for (let i = 0; i < 3; i += 1) {
      await fakes.plays.append(playLog({ userId: alice.id, trackId: 't30', at: NOW - i * 1000 }));
    }
    expect(await idsOf(sut, principalOf(alice), 'mix-on-repeat')).toContain('t30');
    expect(await idsOf(sut, principalOf(alice), 'mix-new')).not.toContain('t30');
  });

  it('makes the mixes of a list a turn of the event loop each, and takes no turn for kept ones', async () => {
    const { sut, clock, alice } = await household();
    const turnsDuring = async (list: Promise<unknown>) => {
      let turns = 0;
      let done = false;
      const tick = () => {
        if (done) return;
        turns += 1;
        setImmediate(tick);
      };
      setImmediate(tick);
      await list;
      done = true;
      return turns;
    };
    await sut.list(principalOf(alice));
    // The next minute: every mix made again, what they read made ahead already.
    clock.advance(60_000);
    expect(await turnsDuring(sut.list(principalOf(alice)))).toBeGreaterThanOrEqual(MIX_IDS.length - 1);
    expect(await turnsDuring(sut.list(principalOf(alice)))).toBe(0);
  });

  it('lets a member hide a mix and show it again, for them alone', async () => {
    const { sut, alice, bob } = await household();
    const listed = async (user: UserRecord) => (await sut.list(principalOf(user))).map((mix) => mix.id);
    expect(await listed(alice)).toEqual([...MIX_IDS]);
    expect(await sut.setHidden(principalOf(alice), 'mix-new', true)).toEqual({ id: 'mix-new', hidden: true });
    expect(await listed(alice)).not.toContain('mix-new');
    expect(await listed(bob)).toContain('mix-new');
    const all = await sut.list(principalOf(alice), true);
    expect(all.find((mix) => mix.id === 'mix-new')?.hidden).toBe(true);
    expect((await sut.get(principalOf(alice), 'mix-new')).hidden).toBe(true);
    await sut.setHidden(principalOf(alice), 'mix-new', false);
    expect(await listed(alice)).toEqual([...MIX_IDS]);
  });

  it('leaves a mix without tracks out of the list, and still answers it by id', async () => {
    const clock = new ManualClock(NOW);
    const { sut, fakes } = newTestService(MixService, { library: library(), clock });
    const dana = makeUserRecord();
    await fakes.users.add(dana);
    expect((await sut.list(principalOf(dana))).map((mix) => mix.id)).toEqual(['mix-new']);
    expect((await sut.get(principalOf(dana), 'mix-on-repeat')).trackIds).toEqual([]);
  });

  it('answers 404 mix_not_found for an id that is not a mix', async () => {
    const { sut, alice } = await household();
    expect(await problemOf(() => sut.get(principalOf(alice), 'mix-nope'))).toBe('404 mix_not_found');
    expect(await problemOf(() => sut.setHidden(principalOf(alice), 'top', true))).toBe('404 mix_not_found');
  });
});
