import { setFlagsFromString } from 'node:v8';
import { heapDoublingDuring } from '../heap-growth.js';
import { startedWith } from '../v8-flags.js';

/**
 * How V8 runs while a scan reads files: its optimizing compiler held back, and the old generation
 * let double between full collections (server/heap-growth.ts says why, and owns that flag).
 *
 * V8 counts the work each function does (its interrupt budget) and sends the ones that used up
 * their budget to TurboFan, on its own threads. Reading a file is mostly native work (the thread
 * pool, V8's runtime, the collector), so optimized tag parsers save little per file, while
 * compiling them costs much: over a first scan the compiler took more CPU than it saved, even when
 * the scan was long enough for its code to run hot (docs/BENCHMARKS.md). While files are read the
 * budget is several times V8's, so only what stays hot over many files is optimized, later.
 *
 * The budget is set on the V8 of Node 20, where it was measured: later V8s work the budget out
 * from other flags (a count of calls times a function's size) and may not know this one (setting
 * an unknown flag writes an error to the console), so there the compiler is left alone. When no
 * scan reads files any more, the budget Node started with is back. The flag is the process's: a
 * process that runs several servers (tests) keeps it until the last of their reads ends. V8 reads
 * it each time it gives a function a new budget, so a change takes effect at once.
 */

/** Whether this V8 takes the budget (the V8 of Node 20, 11.x). */
export const BUDGET_HONOURED = Number(process.versions.v8.split('.')[0]) === 11;
/** V8's own budget (bytes of bytecode run), or the one Node was started with. */
const usual = startedWith(process.execArgv, 'interrupt-budget') ?? 66 * 1024;
/** How many times V8's budget a function runs through before it is optimized while files are read. */
export const PATIENCE = 8;

let reading = 0;

/** Runs `work`, a scan's reading of files, with V8 set for it, and sets it back after. */
export async function whileReadingFiles<T>(work: () => Promise<T>): Promise<T> {
  if (reading++ === 0) budget(usual * PATIENCE);
  try {
    return await heapDoublingDuring(work);
  } finally {
    if (--reading === 0) budget(usual);
  }
}

function budget(bytes: number): void {
  if (BUDGET_HONOURED) setFlagsFromString(`--interrupt-budget=${bytes}`);
}
