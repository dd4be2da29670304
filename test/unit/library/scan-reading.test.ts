import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { PATIENCE } from '../../../server/library/scan-reading.js';
import { peakIn } from '../../support/heap-peak.js';

/**
 * When V8 optimizes a function is V8's, so it is watched in a process of its own, compiling on the
 * main thread so that a function is optimized the moment V8 decides to. Each function is the same
 * loop, made anew so that none shares another's counts: how many calls one takes to be optimized
 * with V8's budget is counted first, then another gets twice that many inside
 * `whileReadingFiles`, and a third the same many after it.
 */
const child = `
import { whileReadingFiles } from './server/library/scan-reading.ts';
let made = 0;
const fresh = () => new Function('n', '/* ' + made++ + ' */ let s = 0; for (let i = 0; i < n; i++) s += i % 7; return s;');
const optimized = (f) => (%GetOptimizationStatus(f) & 16) !== 0;
const callsToOptimize = () => {
  const f = fresh();
  for (let calls = 1; calls < 1e6; calls++) {
    f(50);
    if (optimized(f)) return calls;
  }
  return Infinity;
};
const run = (calls) => {
  const f = fresh();
  for (let i = 0; i < calls; i++) f(50);
  return optimized(f);
};
const usual = callsToOptimize();
const during = await whileReadingFiles(async () => run(2 * usual));
const after = run(2 * usual);
console.log(JSON.stringify({ usual, during, after }));
`;

function watch(flags: string[] = []): { usual: number; during: boolean; after: boolean } {
  const run = spawnSync(
    process.execPath,
    [
      '--allow-natives-syntax',
      '--no-concurrent-recompilation',
      ...flags,
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      child,
    ],
    { encoding: 'utf8' },
  );
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout.trim()) as ReturnType<typeof watch>;
}

/**
 * The same garbage made with the tight growth the entry points ask for, then inside
 * `whileReadingFiles`: how many full collections it set off tells which growth V8 used.
 */
const growthChild = `
import { tightHeapGrowth } from './server/heap-growth.ts';
import { whileReadingFiles } from './server/library/scan-reading.ts';
tightHeapGrowth();
const reading = process.argv.includes('reading');
reading ? await whileReadingFiles(makeGarbage) : await makeGarbage();
console.log(await majorCollections());
`;

const fullCollections = (mode: 'tight' | 'reading'): number => peakIn(growthChild, [mode]);

describe("V8's optimizing compiler while a scan reads files", () => {
  it('optimizes a function that turned hot later while files are read, and as usual after', () => {
    const { usual, during, after } = watch();
    expect(usual).toBeLessThan(10_000);
    expect(during).toBe(false);
    expect(after).toBe(true);
  });

  it("gives back the budget Node was started with, not V8's default", () => {
    // A budget a tenth of V8's: a function is optimized after a tenth of the calls, during a read
    // held back the same number of times, and after it at that tenth again.
    const { usual, during, after } = watch(['--interrupt-budget=6758']);
    expect(usual).toBeLessThan(1_000);
    expect(during).toBe(false);
    expect(after).toBe(true);
    expect(PATIENCE).toBeGreaterThan(2);
  });
});

describe('the heap while a scan reads files', () => {
  it('sets off fewer full collections than the tight growth for the same garbage', () => {
    expect(fullCollections('reading')).toBeLessThan(fullCollections('tight'));
  });
});
