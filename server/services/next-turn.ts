/**
 * Resolves on a later turn of the event loop, after the I/O waiting now: a long piece of work awaits
 * it between slices so other requests are served meanwhile (no stall grows with the data).
 *
 * The turns are shared: one slice a turn, whoever waits, in the order they asked. Each waiter
 * resolved by its own `setImmediate` would let every piece of work waiting (a start's load of the
 * plays, the library's catalog, the search indexes, a recount) run its slice in the same turn, and
 * requests would wait for all of them together.
 */
export const nextTurn = (): Promise<void> => wait(NOW);

/**
 * A turn that gives way to `nextTurn`'s work, as `idleTurn` does, with a share of its own: for work
 * requests wait for as a whole but none is waiting on this very moment, such as the library's read
 * once the statistics answer without it (a first statistics read's own work then goes first). With
 * no `nextTurn` waiting it takes turns in alternation with idle work, so neither holds the other off.
 */
export const laterTurn = (): Promise<void> => wait(LATER);

/**
 * A turn given when no `nextTurn` waits (in alternation with `laterTurn`): for work that nothing
 * waits for (what a start leaves for after its load), so it hardly slows the work a request waits
 * for. Work in the background that never pauses would hold it off for good (and what it frees with
 * it), so once it has been passed over for `PASSED_OVER_MS` it takes the next turn anyway: at most
 * one turn in that time.
 */
export const idleTurn = (): Promise<void> => wait(IDLE);

/** How long a waiter of a lower tier is passed over by other work, at most, before it takes a turn. */
const PASSED_OVER_MS = 50;

interface Tier {
  readonly waiting: Array<() => void>;
  /** Since when its first waiter has been waiting (or it was last given a turn). */
  since: number;
}

const tier = (): Tier => ({ waiting: [], since: 0 });
const NOW = tier();
const LATER = tier();
const IDLE = tier();
const TIERS = [NOW, LATER, IDLE];
/** The tiers that give way to NOW: one gets a turn when NOW has none waiting, or once passed over too long. */
const GIVING_WAY = [LATER, IDLE];
let scheduled = false;

function wait(t: Tier): Promise<void> {
  return new Promise<void>((resolve) => {
    if (t.waiting.length === 0) t.since = performance.now();
    t.waiting.push(resolve);
    if (scheduled) return;
    scheduled = true;
    setImmediate(giveTurn);
  });
}

function giveTurn(): void {
  scheduled = false;
  const now = performance.now();
  const waiting = GIVING_WAY.filter((t) => t.waiting.length > 0);
  // Of the tiers that give way, the one passed over longest: they alternate.
  const longest = waiting.reduce<Tier | undefined>((a, t) => (a && a.since <= t.since ? a : t), undefined);
  const overdue = longest && now - longest.since >= PASSED_OVER_MS;
  const given = overdue || NOW.waiting.length === 0 ? longest : NOW;
  if (!given) return;
  given.since = now;
  const next = given.waiting.shift()!;
  // Scheduled from within a check phase, the next one runs in the next turn, after its I/O.
  if (TIERS.some((t) => t.waiting.length > 0)) {
    scheduled = true;
    setImmediate(giveTurn);
  }
  next();
}
