/**
 * Resolves on a later turn of the event loop, after the I/O waiting now: a long piece of work awaits
 * it between slices so other requests are served meanwhile (no stall grows with the data).
 */
export const nextTurn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));
