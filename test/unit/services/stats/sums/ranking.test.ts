import { describe, expect, it } from 'vitest';
import { Ranking } from '../../../../../server/services/stats/sums/ranking.js';
import { Tally } from '../../../../../server/services/stats/sums/tally.js';
import { byPlays } from '../../../../../server/services/stats/sums/top-n.js';
import { STEP_MS } from '../../../../../server/services/steps.js';

/** A ranking by plays of a tally of `count` items with a few plays each (many ties), and their ids. */
function rankingOf(count: number): { ranking: Ranking; tally: Tally; ids: string[] } {
  const tally = new Tally();
  const ids = Array.from({ length: count }, (_, i) => `t${(i * 7919) % count}`);
  for (let i = 0; i < count; i += 1) {
    for (let p = 0; p <= i % 5; p += 1) tally.bump(i, true, 1000, 1_000 + ((i * 31) % 97));
  }
  return { ranking: new Ranking(tally, () => byPlays(tally, ids)), tally, ids };
}

/** Prepares `ranking`, running `onTurn` at each turn it yields; answers how many turns it took. */
async function prepareCountingTurns(
  ranking: Ranking,
  version: () => number,
  onTurn: (turn: number) => void = () => {},
  /** The clock the steps are timed by: by default each look at it finds a turn's budget spent. */
  now: () => number = ticking(STEP_MS),
): Promise<number> {
  let turns = 0;
  await ranking.prepare(
    version,
    () => {
      turns += 1;
      onTurn(turns);
      return Promise.resolve();
    },
    now,
  );
  return turns;
}

/** A clock that moves `by` ms at every look. */
function ticking(by: number): () => number {
  let t = 0;
  return () => (t += by);
}

/** The order a ranking must have: every played item sorted at once. */
function reference(tally: Tally, ids: string[]): number[] {
  return tally.played().sort(byPlays(tally, ids));
}

describe('a ranking made ahead of its first read', () => {
  it('is sorted a step per turn and lists what a ranking made at its read lists', async () => {
    const { ranking, tally, ids } = rankingOf(5000);
    expect(await prepareCountingTurns(ranking, () => 0)).toBeGreaterThan(1);
    expect(ranking.page(0, 5000)).toEqual(reference(tally, ids));
  });

  it('runs as many steps in a turn as its budget allows', async () => {
    const { ranking, tally, ids } = rankingOf(50_000);
    const stepAtATime = await prepareCountingTurns(rankingOf(50_000).ranking, () => 0);
    // Each look at the clock finds a tenth of the budget spent: about ten steps a turn.
    const turns = await prepareCountingTurns(ranking, () => 0, undefined, ticking(STEP_MS / 10));
    expect(turns).toBeGreaterThan(1);
    expect(turns).toBeLessThan(stepAtATime / 4);
    expect(ranking.page(0, 50_000)).toEqual(reference(tally, ids));
  });

  it('starts over when a log is counted between steps, and is made at once after three tries', async () => {
    const { ranking, tally, ids } = rankingOf(5000);
    let version = 0;
    const turns = await prepareCountingTurns(
      ranking,
      () => version,
      (turn) => {
        // A play of item 3 arrives: it moves up, so a sort half made is out of date.
        const at = ranking.before(3);
        tally.bump(3, true, 1000, 5_000 + turn);
        ranking.after(3, at);
        version += 1;
      },
    );
    expect(turns).toBe(3);
    expect(ranking.page(0, 5000)).toEqual(reference(tally, ids));
  });

  it('is kept current by the logs counted after it was made', async () => {
    const { ranking, tally, ids } = rankingOf(3000);
    await ranking.prepare(
      () => 0,
      () => Promise.resolve(),
    );
    for (const idx of [2999, 10, 10, 10, 10, 10, 10]) {
      const at = ranking.before(idx);
      tally.bump(idx, true, 1000, 9_000);
      ranking.after(idx, at);
    }
    expect(ranking.page(0, 3000)).toEqual(reference(tally, ids));
    expect(ranking.page(0, 1)).toEqual([10]);
  });
});
