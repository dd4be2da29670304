/**
 * The parts of the fuzzing that the main run keeps out of the way: the login and invite-code
 * limiters while they bite (no clock movement, so most answers are 429), and bodies over the size
 * limits on every POST route. Plus the check that the fuzzer's list of problem codes covers every
 * code the server's source can throw.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codesInServerSource, KNOWN_PROBLEM_CODES } from '../support/problem-codes.js';
import { rawClient, type RawResponse } from '../support/raw-http.js';
import { TreeHasher, treeDiff } from '../support/tree-hash.js';
import { requestArbitrary } from './generators.js';
import { Lane } from './lane.js';
import { ROUTE_SPECS } from './route-specs.js';

const SEED = Number(process.env.FUZZ_SEED ?? 72_026);
const LIMITER_RUNS = 400;
const LIMITED = new Set(['GET /auth/login', 'POST /auth/login', 'GET /auth/code-authenticate']);

const lane = new Lane('limits', { holdClock: true });
beforeAll(() => lane.start(), 120_000);
afterAll(() => lane.stop());

describe('problem codes', () => {
  it('lists every code the server source throws', async () => {
    const codes = await codesInServerSource(process.cwd());
    expect(codes.size).toBeGreaterThan(20);
    expect([...codes].filter((code) => !KNOWN_PROBLEM_CODES.has(code))).toEqual([]);
  });
});

describe('fuzzing the rate limiters', () => {
  it(`answers ${LIMITER_RUNS} generated login and invite-code requests with problem documents and no store change`, async () => {
    // The generator over the whole table, restricted to the limited routes (indices stay those
    // of the full table, which the lane renders against).
    const routes = lane.routes;
    const specs = routes.map((r) => ROUTE_SPECS[`${r.method} ${r.path}`] ?? { params: {} });
    const limitedOnly = specs.map((spec, i) => ({
      ...spec,
      weight: LIMITED.has(`${routes[i]!.method} ${routes[i]!.path}`) ? 1 : 0,
    }));
    const arbitrary = requestArbitrary(routes, limitedOnly).filter((request) => request.route >= 0);
    const requests = fc.sample(arbitrary, { seed: SEED, numRuns: LIMITER_RUNS });
    expect(requests.every((r) => LIMITED.has(`${routes[r.route]!.method} ${routes[r.route]!.path}`))).toBe(
      true,
    );

    const report = await lane.run(requests);
    console.log(
      `fuzz (limiters): ${report.sent} requests; statuses ${JSON.stringify(Object.fromEntries(report.statuses))}`,
    );
    expect(report.failures).toEqual([]);
    expect(report.unhandled).toEqual([]);
    // Both limiters were hit (login through either method), and every 429 said when to come back.
    const limited = (method: string, path: string) =>
      report.perRoute[routes.findIndex((r) => r.method === method && r.path === path)]!.limited;
    expect(limited('GET', '/auth/login') + limited('POST', '/auth/login')).toBeGreaterThan(20);
    expect(limited('GET', '/auth/code-authenticate')).toBeGreaterThan(20);
    expect(report.retryAfter).toBeGreaterThanOrEqual(report.statuses.get(429) ?? 0);
  }, 300_000);
});

describe('bodies over the limits', () => {
  it('refuses an oversized JSON, form and multipart body on every POST route with 413 and no store change', async () => {
    const t = lane.testServer;
    const client = rawClient(t.url);
    const hasher = new TreeHasher({ data: t.dataDir, library: lane.libraryDir });
    const posts = lane.routes.filter((route) => route.method === 'POST');
    const big = 'x'.repeat(1024 * 1024 + 1);
    const failures: string[] = [];
    let sent = 0;
    try {
      for (const route of posts) {
        const bodies: Array<{ type: string; body: Buffer }> = [
          { type: 'application/json', body: Buffer.from(JSON.stringify({ id: big, name: big })) },
          { type: 'application/x-www-form-urlencoded', body: Buffer.from(`id=${big}&name=x`) },
        ];
        // A route with a larger limit of its own (imports: 1 GiB) is too big to fill here; the
        // per-route limit itself is tested in test/unit/http/upload-limit.test.ts.
        if (route.multipart && route.uploadLimitBytes === undefined) {
          const boundary = 'melonlimit';
          bodies.push({
            type: `multipart/form-data; boundary=${boundary}`,
            body: Buffer.concat([
              Buffer.from(
                `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\n` +
                  'Content-Type: image/png\r\n\r\n',
              ),
              Buffer.alloc(20 * 1024 * 1024 + 1, 0x42),
              Buffer.from(`\r\n--${boundary}--\r\n`),
            ]),
          });
        }
        for (const { type, body } of bodies) {
          const before = hasher.snapshot();
          let response: RawResponse;
          try {
            sent += 1;
            response = await client.send({
              method: 'POST',
              path: route.path,
              headers: { 'content-type': type, authorization: `Bearer ${t.adminToken}` },
              body,
            });
          } catch (error) {
            failures.push(`${route.path} ${type}: no response (${String(error)})`);
            continue;
          }
          const problem = JSON.parse(response.body.toString() || '{}') as { code?: string };
          if (response.status !== 413 || problem.code !== 'payload_too_large')
            failures.push(
              `${route.path} ${type}: ${response.status} ${response.body.toString().slice(0, 200)}`,
            );
          const changed = treeDiff(before, hasher.snapshot());
          if (changed.length > 0) failures.push(`${route.path} ${type}: store changed ${changed.join(' ')}`);
        }
      }
    } finally {
      client.close();
    }
    console.log(`fuzz (size limits): ${sent} oversized bodies over ${posts.length} POST routes`);
    expect(failures).toEqual([]);
  }, 120_000);
});
