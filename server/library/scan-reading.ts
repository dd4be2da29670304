import { setFlagsFromString } from 'node:v8';
import { heapDoublingDuring } from '../heap-growth.js';

/**
 * How V8 runs while a scan reads files: its optimizing compiler held back, and the old generation
 * let grow more between full collections.
 *
 * - V8 counts the work each function does (its interrupt budget) and sends the ones that used up
 *   their budget to TurboFan, on its own threads. Reading a file is mostly native work (the thread
 *   pool, V8's runtime, the collector), so optimized tag parsers save little per file, while
 *   compiling them costs much: in a first scan of a few hundred files the compiler took more CPU
 *   than it saved, and at a thousand files still did. While files are read the budget is several
 *   times V8's, so only what stays hot over many files is optimized, later.
 * - A scan runs with V8's own heap growth (server/heap-growth.ts), which in a server that has just
 *   started, with a small heap, lets the old generation grow little: a first scan's parsers and
 *   compiled code then set off one full collection after another. While files are read the old
 *   generation may double before the next.
 *
 * When no scan reads files any more, V8's budget and the scan's growth are back for the rest of
 * the server. The flags are the process's, like the heap growth: a process that runs several
 * servers (tests) keeps them until the last of their reads ends. V8 reads the budget each time it
 * gives a function a new one, and the growth at each full collection, so a change takes effect
 * at once.
 */

/** V8's own budget (bytes of bytecode run), or the one Node was started with. */
const usual = startedWith(process.execArgv) ?? 66 * 1024;
/** How many times V8's budget a function runs through before it is optimized while files are read. */
export const PATIENCE = 8;

let reading = 0;

/** Runs `work`, a scan's reading of files, with V8 set for it, and sets it back after. */
export async function whileReadingFiles<T>(work: () => Promise<T>): Promise<T> {
  if (reading++ === 0) setFlagsFromString(`--interrupt-budget=${usual * PATIENCE}`);
  try {
    return await heapDoublingDuring(work);
  } finally {
    if (--reading === 0) setFlagsFromString(`--interrupt-budget=${usual}`);
  }
}

/** The budget an `--interrupt-budget` among Node's own options set; null when none did. */
export function startedWith(execArgv: readonly string[]): number | null {
  let budget: number | null = null;
  for (const arg of execArgv) {
    const match = /^--interrupt[-_]budget=(\d+)$/.exec(arg);
    if (match) budget = Number(match[1]);
  }
  return budget;
}
