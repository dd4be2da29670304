import { setFlagsFromString } from 'node:v8';
import { startedWith } from './v8-flags.js';

/**
 * How far V8 lets the old generation grow past what its last full collection kept before it
 * collects again. Left to itself, at the heap limit Melon runs with, V8 lets it grow by well over a
 * half; a server that holds a large library and play index at rest then carries that much garbage
 * for good. At rest Melon asks for a quarter. A scan is the exception: it makes garbage fast for
 * minutes, and with a tight heap it pays in full collections, so while one runs V8 decides, and
 * while it reads files the old generation may double.
 *
 * The setting is the process's, not one server's: the entry points (the `melon` command, `npm
 * start`, the desktop app) ask for it, while an embedder (a test, a bench's helper) keeps its own
 * (V8's, or what Node was started with) but for a scan's reading.
 * V8 reads the flag at each full collection, so setting it after start takes effect.
 */
export interface HeapGrowth {
  /** Runs `work` with V8's own growth, then goes back to the tight growth once no work is left. */
  relaxedDuring<T>(work: () => Promise<T>): Promise<T>;
}

/** Percent of growth at rest in the entry points. */
const TIGHT = 25;
/** V8's own choice (the flag's default), or what Node was started with: a scan's, and an embedder's. */
const OWN = startedWith(process.execArgv, 'heap-growing-percent') ?? 0;
/**
 * While a scan reads files: more than V8 gives a small heap that has just started (a first scan's
 * parsers and compiled code would set off one full collection after another), less than it may give
 * a large one (up to several times the heap), which bounds a first scan's peak on a small machine.
 */
const DOUBLING = 100;

// This module is the one owner of the flag: each caller says what it needs and for how long, and the
// flag follows the need of highest rank still running: a scan's reading, then a scan, then rest.
let tightened = false;
let relaxed = 0;
let doubling = 0;

function apply(): void {
  const percent = doubling > 0 ? DOUBLING : relaxed > 0 || !tightened ? OWN : TIGHT;
  setFlagsFromString(`--heap-growing-percent=${percent}`);
}

async function holding<T>(need: 'relaxed' | 'doubling', work: () => Promise<T>): Promise<T> {
  if (need === 'relaxed') relaxed++;
  else doubling++;
  apply();
  try {
    return await work();
  } finally {
    if (need === 'relaxed') relaxed--;
    else doubling--;
    apply();
  }
}

const processHeap: HeapGrowth = { relaxedDuring: (work) => holding('relaxed', work) };

/** Makes the process's old generation grow by a quarter between full collections from now on. */
export function tightHeapGrowth(): HeapGrowth {
  tightened = true;
  apply();
  return processHeap;
}

/**
 * Runs `work` with the old generation let double between full collections, whatever the growth
 * otherwise: for a scan's reading of files, whose parsers and compiled code would set off one full
 * collection after another in a small heap (server/library/scan-reading.ts).
 */
export function heapDoublingDuring<T>(work: () => Promise<T>): Promise<T> {
  return holding('doubling', work);
}
