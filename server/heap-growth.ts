import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what its last full collection kept before it
 * collects again. Left to itself, at the heap limit Melon runs with, V8 lets it grow by well over a
 * half; a server that holds a large library and play index at rest then carries that much garbage
 * for good. At rest Melon asks for a quarter. A scan is the exception: it makes garbage fast for
 * minutes, and with a tight heap it pays in full collections, so while one runs V8 decides.
 *
 * The setting is the process's, not one server's: the entry points (the `melon` command, `npm
 * start`, the desktop app) ask for it, while an embedder (a test, a bench's helper) keeps V8's.
 * V8 reads the flag at each full collection, so setting it after start takes effect.
 */
export interface HeapGrowth {
  /** Runs `work` with V8's own growth, then goes back to the tight growth once no work is left. */
  relaxedDuring<T>(work: () => Promise<T>): Promise<T>;
}

const TIGHT = '--heap-growing-percent=25';
/** The flag's default: V8 chooses the growth itself. */
const V8_DEFAULT = '--heap-growing-percent=0';

let relaxed = 0;

const processHeap: HeapGrowth = {
  async relaxedDuring(work) {
    if (relaxed++ === 0) setFlagsFromString(V8_DEFAULT);
    try {
      return await work();
    } finally {
      if (--relaxed === 0) setFlagsFromString(TIGHT);
    }
  },
};

/** Makes the process's old generation grow by a quarter between full collections from now on. */
export function tightHeapGrowth(): HeapGrowth {
  if (relaxed === 0) setFlagsFromString(TIGHT);
  return processHeap;
}
