/**
 * Property: whatever a client sends to any endpoint of the route table, the server answers without
 * a 5xx; every error is an RFC 9457 problem document with a known code; and a refused request (or
 * any read) leaves the data folder and the music library byte for byte as they were.
 *
 * Seeded (FUZZ_SEED) and bounded (FUZZ_RUNS, default 10,000 requests). The requests are generated up
 * front and dealt to LANES independent servers (test/fuzz/lane.ts); each lane sends its share one at
 * a time, so every request's effect on its store is seen alone, while the lanes overlap their waits.
 * The login and invite-code limiters are kept out of the way by moving each lane's clock; see
 * test/fuzz/limits.test.ts for fuzzing while they bite.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestArbitrary, type FuzzRequest } from './generators.js';
import { Lane, type LaneReport } from './lane.js';
import { ROUTE_SPECS } from './route-specs.js';

const SEED = Number(process.env.FUZZ_SEED ?? 72_026);
const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);
const LANES = 3;

const lanes = Array.from({ length: LANES }, (_, i) => new Lane(String.fromCharCode(97 + i)));

beforeAll(async () => {
  await Promise.all(lanes.map((lane) => lane.start()));
}, 180_000);

afterAll(async () => {
  await Promise.all(lanes.map((lane) => lane.stop()));
});

const add = <K>(into: Map<K, number>, from: Map<K, number>) => {
  for (const [key, n] of from) into.set(key, (into.get(key) ?? 0) + n);
};

describe('API fuzzing', () => {
  it(`answers ${RUNS} generated requests over every route: no 5xx, known problem codes, store untouched on refusal`, async () => {
    const routes = lanes[0]!.routes;
    const missing = routes.map((r) => `${r.method} ${r.path}`).filter((key) => !(key in ROUTE_SPECS));
    expect(missing, 'routes without a fuzz spec in test/fuzz/route-specs.ts').toEqual([]);
    const specs = routes.map((r) => ROUTE_SPECS[`${r.method} ${r.path}`]!);
    const requests = fc.sample(requestArbitrary(routes, specs), { seed: SEED, numRuns: RUNS });
    const shares: FuzzRequest[][] = lanes.map(() => []);
    requests.forEach((request, i) => shares[i % LANES]!.push(request));

    const started = Date.now();
    const reports: LaneReport[] = await Promise.all(lanes.map((lane, i) => lane.run(shares[i]!)));
    const seconds = (Date.now() - started) / 1000;

    const statuses = new Map<number, number>();
    const codes = new Map<string, number>();
    for (const report of reports) {
      add(statuses, report.statuses);
      add(codes, report.codes);
    }
    const perRoute = routes.map((route, i) => ({
      route: `${route.method} ${route.path}`,
      sent: reports.reduce((n, r) => n + r.perRoute[i]!.sent, 0),
      reached: reports.reduce((n, r) => n + r.perRoute[i]!.reached, 0),
      ok: reports.reduce((n, r) => n + r.perRoute[i]!.ok, 0),
    }));
    const sent = reports.reduce((n, r) => n + r.sent, 0);
    const checked = reports.reduce((n, r) => n + r.storeChecked, 0);
    console.log(
      `fuzz: ${sent} requests (seed ${SEED}, ${LANES} lanes) over ${routes.length} routes in ${seconds.toFixed(1)} s; ` +
        `statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}; ` +
        `${codes.size} distinct problem codes; ${checked} refusals store-checked; ` +
        `${perRoute.filter((r) => r.ok > 0).length}/${routes.length} routes answered 2xx at least once ` +
        `(not: ${perRoute
          .filter((r) => r.ok === 0)
          .map((r) => r.route)
          .join(', ')})`,
    );

    expect(sent).toBe(RUNS);
    expect(reports.flatMap((r) => r.failures)).toEqual([]);
    expect(reports.flatMap((r) => r.unhandled)).toEqual([]);
    // Every route got requests with its own method, and some of them got past auth and routing
    // (checked at full size; a quick run with a small FUZZ_RUNS may miss the rarer routes).
    if (RUNS >= 10_000) expect(perRoute.filter((r) => r.sent < 5 || r.reached === 0)).toEqual([]);
  }, 600_000);
});
