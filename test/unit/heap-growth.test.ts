import { describe, expect, it } from 'vitest';
import { peakIn } from '../support/heap-peak.js';

type Mode = 'v8' | 'tight' | 'relaxed' | 'after-doubling';

/**
 * The heap growth is V8's, so it is measured in a process of its own: the same garbage made with
 * V8's growth, with the tight growth, inside `relaxedDuring` after tightening, and with the tight
 * growth again after a scan's reading let the heap double. The old generation's peak tells which
 * growth V8 used.
 */
const child = (mode: Mode) => `
import { heapDoublingDuring, tightHeapGrowth } from './server/heap-growth.ts';
const mode = '${mode}';
const heap = mode === 'v8' ? null : tightHeapGrowth();
if (mode === 'after-doubling') await heapDoublingDuring(async () => undefined);
const peak = mode === 'relaxed' ? await heap.relaxedDuring(makeGarbage) : await makeGarbage();
console.log(peak);
`;

const peakOf = (mode: Mode): number => peakIn(child(mode));

describe('the heap growth the entry points ask for', () => {
  it('keeps less garbage at rest than V8 would, and lets V8 decide while a scan runs', () => {
    const v8 = peakOf('v8');
    const tight = peakOf('tight');
    const relaxed = peakOf('relaxed');
    expect(tight).toBeLessThan(v8 * 0.8);
    expect(relaxed).toBeGreaterThan(tight * 1.2);
  });

  it('is tight again once a scan has read its files, not left as V8 would have it', () => {
    expect(peakOf('after-doubling')).toBeLessThan(peakOf('v8') * 0.8);
  });
});
