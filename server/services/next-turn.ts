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
    if (waiting.length === 1) setImmediate(giveTurn);
  });

const waiting: Array<() => void> = [];

function giveTurn(): void {
  const next = waiting.shift();
  // Scheduled from within a check phase, the next one runs in the next turn, after its I/O.
  if (waiting.length > 0) setImmediate(giveTurn);
  next?.();
}
