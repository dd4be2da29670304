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
 * A turn given only when no `nextTurn` waits: for work that nothing waits for (what a start leaves
 * for after its load), so it never slows the work a request waits for.
 */
export const idleTurn = (): Promise<void> =>
  new Promise<void>((resolve) => {
    idle.push(resolve);
    schedule();
  });

const waiting: Array<() => void> = [];
const idle: Array<() => void> = [];
let scheduled = false;

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(giveTurn);
}

function giveTurn(): void {
  scheduled = false;
  const next = waiting.shift() ?? idle.shift();
  // Scheduled from within a check phase, the next one runs in the next turn, after its I/O.
  if (waiting.length > 0 || idle.length > 0) schedule();
  next?.();
}
