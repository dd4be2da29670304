/**
 * Resolves on a later turn of the event loop, after the I/O waiting now: a long piece of work awaits
 * it between slices so other requests are served meanwhile (no stall grows with the data).
 *
 * The turns are shared: one slice a turn, whoever waits, in the order they asked. Each waiter
 * resolved by its own `setImmediate` would let every piece of work waiting (a start's load of the
 * plays, the library's catalog, the search indexes, a recount) run its slice in the same turn, and
 * requests would wait for all of them together.
 */
export const nextTurn = (): Promise<void> =>
  new Promise<void>((resolve) => {
    waiting.push(resolve);
    schedule();
  });

/**
 * A turn given when no `nextTurn` waits: for work that nothing waits for (what a start leaves for
 * after its load), so it hardly slows the work a request waits for. Work in the background that
 * never pauses would hold it off for good (and what it frees with it), so once it has been passed
 * over for `IDLE_WAIT_MS` it takes the next turn anyway: at most one turn in that time.
 */
export const idleTurn = (): Promise<void> =>
  new Promise<void>((resolve) => {
    if (idle.length === 0) idleSince = performance.now();
    idle.push(resolve);
    schedule();
  });

/** How long an idle waiter is passed over by other work, at most, before it takes a turn. */
const IDLE_WAIT_MS = 50;

const waiting: Array<() => void> = [];
const idle: Array<() => void> = [];
/** Since when the first idle waiter has been waiting (or the last one was given its turn). */
let idleSince = 0;
let scheduled = false;

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(giveTurn);
}

function giveTurn(): void {
  scheduled = false;
  const idleDue = idle.length > 0 && (waiting.length === 0 || performance.now() - idleSince >= IDLE_WAIT_MS);
  if (idleDue) idleSince = performance.now();
  const next = idleDue ? idle.shift() : waiting.shift();
  // Scheduled from within a check phase, the next one runs in the next turn, after its I/O.
  if (waiting.length > 0 || idle.length > 0) schedule();
  next?.();
}
