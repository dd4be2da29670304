import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/**
 * The heap growth is V8's, so it is measured in a process of its own: the same garbage made with
 * V8's growth, with the tight growth, and inside `relaxedDuring` after tightening. The old
 * generation's peak tells which growth V8 used.
 */
const child = (mode: 'v8' | 'tight' | 'relaxed') => `
import { getHeapStatistics } from 'node:v8';
import { tightHeapGrowth } from './server/heap-growth.ts';
const makeGarbage = async () => {
  const kept = [];
  let peak = 0;
  for (let round = 0; round < 60; round++) {
    for (let i = 0; i < 20000; i++) kept.push({ name: 'item ' + i + '/' + round, at: [i, round] });
    if (kept.length > 400000) kept.splice(0, 200000);
    peak = Math.max(peak, getHeapStatistics().total_heap_size);
  }
  return peak;
};
const mode = '${mode}';
const heap = mode === 'v8' ? null : tightHeapGrowth();
const peak = mode === 'relaxed' ? await heap.relaxedDuring(makeGarbage) : await makeGarbage();
console.log(peak);
`;

function peakOf(mode: 'v8' | 'tight' | 'relaxed'): number {
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', child(mode)], {
    encoding: 'utf8',
  });
  expect(run.stderr).toBe('');
  return Number(run.stdout.trim());
}

describe('the heap growth the entry points ask for', () => {
  it('keeps less garbage at rest than V8 would, and lets V8 decide while a scan runs', () => {
    const v8 = peakOf('v8');
    const tight = peakOf('tight');
    const relaxed = peakOf('relaxed');
    expect(tight).toBeLessThan(v8 * 0.8);
    expect(relaxed).toBeGreaterThan(tight * 1.2);
  });
});
