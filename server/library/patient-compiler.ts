import { setFlagsFromString } from 'node:v8';

/**
 * V8's optimizing compiler held back while a scan reads files. V8 counts the work each function does
 * (its interrupt budget) and sends the ones that used up their budget to TurboFan, on its own
 * threads. Reading a file is mostly native work (the thread pool, V8's runtime, the collector), so
 * optimized tag parsers save little per file, while compiling them costs much: in a first scan of
 * a few hundred files the compiler took more CPU than it saved, and at a thousand files still did.
 * While files are read the budget is several times V8's, so only what stays hot over many files is
 * optimized, later; when no scan reads files any more, V8's budget is back for the rest of the
 * server.
 *
 * The flag is the process's, like the heap growth (server/heap-growth.ts): a process that runs
 * several servers (tests) keeps the longer budget until the last of their reads ends. V8 reads it
 * each time it gives a function a new budget, so a change takes effect within a function's next
 * calls.
 */

/** V8's own budget (bytes of bytecode run), or the one Node was started with. */
const usual = startedWith(process.execArgv) ?? 66 * 1024;
/** How many times V8's budget a function runs through before it is optimized while files are read. */
export const PATIENCE = 8;

let reading = 0;

/** Runs `work` with V8's optimizing compiler held back, and gives V8 its budget back after. */
export async function withPatientCompiler<T>(work: () => Promise<T>): Promise<T> {
  if (reading++ === 0) setFlagsFromString(`--interrupt-budget=${usual * PATIENCE}`);
  try {
    return await work();
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
