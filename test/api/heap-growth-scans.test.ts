import { afterAll, describe, expect, it } from 'vitest';
import type { HeapGrowth } from '../../server/heap-growth.js';
import type { Scanner } from '../../server/services/library-service.js';
import { fakeScanner, makeLibrary } from '../factories/library.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * The entry points tighten the process's heap growth (server/heap-growth.ts); a scan, which makes
 * garbage fast, runs with V8's own. The growth here only records when it is relaxed.
 */
describe('a server given the heap growth the entry points tighten', () => {
  let t: TestServer | undefined;
  afterAll(() => t?.stop());

  it('scans with V8’s own growth, stoppable as ever, and goes back to the tight growth once the scan ends', async () => {
    let relaxed = false;
    const heapGrowth: HeapGrowth = {
      async relaxedDuring(work) {
        relaxed = true;
        try {
          return await work();
        } finally {
          relaxed = false;
        }
      },
    };
    const scans = fakeScanner(
      makeLibrary({ artists: [], albums: [], tracks: [{ id: 't1', name: 'Opening' }] }),
    );
    const seen: boolean[] = [];
    const signals: unknown[] = [];
    const scanner: Scanner = (...args) => {
      seen.push(relaxed);
      signals.push(args[3]);
      return scans(...args);
    };
    t = await startTestServer({ scanner, heapGrowth });
    expect(seen).toEqual([true]);
    expect(relaxed).toBe(false);
    expect((await t.call('/api/library/scan', { method: 'POST', token: t.adminToken })).status).toBe(202);
    await t.server.services.library.waitForIdle();
    expect(seen).toEqual([true, true]);
    expect(relaxed).toBe(false);
    // The scan still gets what stops it at close.
    expect(signals.every((signal) => signal instanceof AbortSignal)).toBe(true);
  });
});
