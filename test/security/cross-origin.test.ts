import { beforeAll, describe, expect, it } from 'vitest';
import { fakeScanner, makeLibrary } from '../factories/library.js';
import { makeUser, type TestUser } from '../factories/users.js';
import { isCrossOrigin } from '../../server/http/cross-origin.js';
import { send, snapshot, type HostileResponse } from '../support/attacker.js';
import { createInvite } from '../support/invites.js';
import { useTestServer } from '../support/server.js';

/**
 * CORS and cross-site requests (server/http/cross-origin.ts): a web page of another origin cannot
 * drive the API through the browser of someone at home. Devices (no Origin) and the settings page
 * (same origin) are unaffected.
 */
let user: TestUser;
let own: string;
const FOREIGN = 'http://evil.example';

const t = useTestServer({
  scanner: fakeScanner(
    makeLibrary({ artists: [{ id: 'ar1' }], albums: [{ id: 'al1' }], tracks: [{ id: 't1' }] }),
  ),
  // A name the household gave the server (the host guard answers only to known names).
  env: { MELON_ALLOWED_HOSTS: 'melon.home' },
});

beforeAll(async () => {
  user = await makeUser(t);
  own = t.url; // http://127.0.0.1:PORT, which is also what fetch sends as Host
});

const samplePath = (path: string) => path.replace(/:(\w+)/g, 'sample-$1');
const ACCESS_CONTROL = /^access-control-/i;

/**
 * Requests a browser would send from another site. Sent raw: a refusal (403) is not part of any
 * route's own OpenAPI responses, which t.call checks.
 */
function fromBrowser(path: string, headers: Record<string, string>, method = 'GET', body?: string) {
  return send(t.url, { method, path, headers, body });
}

function expectRefused(response: HostileResponse, label = '') {
  expect(response.status, label).toBe(403);
  expect(response.headers['content-type'], label).toMatch(/^application\/problem\+json/);
  expect(response.json(), label).toMatchObject({ status: 403, code: 'cross_origin_refused' });
  expect(
    Object.keys(response.headers).filter((name) => ACCESS_CONTROL.test(name)),
    label,
  ).toEqual([]);
}

const logPlay = (headers: Record<string, string>) =>
  t.call('/api/stats/log-play?id=t1', { method: 'POST', token: user.token, headers });
const logPlayFrom = (headers: Record<string, string>) =>
  fromBrowser('/api/stats/log-play?id=t1', { Authorization: `Bearer ${user.token}`, ...headers }, 'POST');

describe('requests carrying a foreign Origin', () => {
  it('are refused on every route of the table, before authorisation, even with an Admin token', async () => {
    for (const route of t.server.routes) {
      const label = `${route.method} ${route.path}`;
      const response = await fromBrowser(
        samplePath(route.path),
        { Origin: FOREIGN, Authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' },
        route.method,
        route.method === 'POST' ? '{}' : undefined,
      );
      expectRefused(response, label);
    }
  });

  it('change nothing: a log-play, a user creation, an invite exchange and a login leave the store as it was', async () => {
    const { code } = await createInvite(t);
    const before = await snapshot(t.dataDir);
    expectRefused(await logPlayFrom({ Origin: FOREIGN }));
    expectRefused(
      await fromBrowser(
        '/api/users/create',
        {
          Origin: FOREIGN,
          Authorization: `Bearer ${t.adminToken}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        'POST',
        'username=planted&password=planted-password&role=Admin',
      ),
    );
    expectRefused(await fromBrowser(`/auth/code-authenticate?code=${code}`, { Origin: FOREIGN }));
    expectRefused(
      await fromBrowser(
        '/auth/login',
        { Origin: FOREIGN, 'content-type': 'application/x-www-form-urlencoded' },
        'POST',
        `username=${user.username}&password=${user.password}`,
      ),
    );
    expect(await snapshot(t.dataDir)).toEqual(before);
    // The code is still unspent: the device that owns it can use it.
    expect((await t.call(`/auth/code-authenticate?code=${code}`)).status).toBe(200);
  });

  it('fail the CORS preflight with a problem and no Access-Control-Allow-* headers', async () => {
    const response = await fromBrowser(
      '/api/stats/log-play',
      {
        Origin: FOREIGN,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, content-type',
      },
      'OPTIONS',
    );
    expectRefused(response);
  });

  it('include look-alikes of the own origin and the opaque origin null', async () => {
    const port = new URL(own).port;
    const lookAlikes = [
      'null',
      `${own}.evil.example`,
      `http://127.0.0.1:${Number(port) + 1}`,
      `https://127.0.0.1:${port}`,
      `http://localhost:${port}`, // the server is reached as 127.0.0.1 here
      'http://127.0.0.1',
      'file://',
      'not a url',
    ];
    for (const origin of lookAlikes) expectRefused(await logPlayFrom({ Origin: origin }), origin);
  });

  it('include a request that sends Origin twice, once foreign', async () => {
    const response = await send(t.url, {
      method: 'POST',
      path: '/api/stats/log-play?id=t1',
      headers: [
        ['Authorization', `Bearer ${user.token}`],
        ['Origin', own],
        ['Origin', FOREIGN],
      ],
    });
    expectRefused(response);
  });
});

describe('browser requests without Origin (Sec-Fetch-Site)', () => {
  it('refuses a cross-site <img> or link to a state-changing GET, and leaves the code unspent', async () => {
    const { code } = await createInvite(t);
    for (const site of ['cross-site', 'same-site']) {
      for (const mode of ['no-cors', 'navigate']) {
        const response = await fromBrowser(`/auth/code-authenticate?code=${code}`, {
          'Sec-Fetch-Site': site,
          'Sec-Fetch-Mode': mode,
        });
        expectRefused(response, `${site} ${mode}`);
      }
    }
    expect((await t.call(`/auth/code-authenticate?code=${code}`)).status).toBe(200);
  });

  it('lets a link on another site open the settings page, and nothing else', async () => {
    const navigate = { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate' };
    expect((await fromBrowser('/admin', navigate)).status).toBe(200);
    expectRefused(await fromBrowser('/admin/app.js', { ...navigate, 'Sec-Fetch-Mode': 'no-cors' }));
    expectRefused(await fromBrowser('/admin', { ...navigate, 'Sec-Fetch-Mode': 'cors' }));
    expectRefused(await fromBrowser('/api/health', navigate));
  });
});

describe('clients that are allowed', () => {
  it('devices, which send no Origin', async () => {
    expect((await logPlay({})).status).toBe(200);
  });

  it('the settings page: same origin, in any letter case, with or without Sec-Fetch-Site', async () => {
    expect((await logPlay({ Origin: own })).status).toBe(200);
    expect((await logPlay({ Origin: own.toUpperCase() })).status).toBe(200);
    expect(
      (await logPlay({ Origin: own, 'Sec-Fetch-Site': 'same-origin', 'Sec-Fetch-Mode': 'cors' })).status,
    ).toBe(200);
    expect((await logPlay({ 'Sec-Fetch-Site': 'none' })).status).toBe(200);
  });

  it('the server under another name: the own origin follows the Host header', async () => {
    const response = await send(t.url, {
      method: 'POST',
      path: '/api/stats/log-play?id=t1',
      headers: {
        Host: 'melon.home:14524',
        Origin: 'http://melon.home:14524',
        Authorization: `Bearer ${user.token}`,
      },
    });
    expect(response.status).toBe(200);
  });

  it('but even they never get Access-Control-Allow-* headers', async () => {
    const response = await logPlayFrom({ Origin: own });
    expect(response.status).toBe(200);
    expect(Object.keys(response.headers).filter((name) => ACCESS_CONTROL.test(name))).toEqual([]);
  });
});

describe('the own origin', () => {
  const ctx = (host: string, origin: string, protocol = 'http') => ({
    host,
    protocol,
    method: 'POST',
    path: '/api/stats/log-play',
    get: (name: string) => (name === 'Origin' ? origin : ''),
  });

  it('is compared as an origin: default ports, letter case and IPv6 brackets do not matter', () => {
    expect(isCrossOrigin(ctx('melon.home', 'http://melon.home:80'))).toBe(false);
    expect(isCrossOrigin(ctx('Melon.Home:14524', 'http://melon.home:14524'))).toBe(false);
    expect(isCrossOrigin(ctx('[::1]:14524', 'http://[::1]:14524'))).toBe(false);
    expect(isCrossOrigin(ctx('melon.home', 'https://melon.home', 'https'))).toBe(false);
  });

  it('never matches without a Host, or with a scheme other than http(s)', () => {
    expect(isCrossOrigin(ctx('', 'http://'))).toBe(true);
    expect(isCrossOrigin(ctx('', 'null'))).toBe(true);
    expect(isCrossOrigin(ctx('melon.home', 'ftp://melon.home'))).toBe(true);
    expect(isCrossOrigin(ctx('melon.home', 'http://melon.home.'))).toBe(true);
  });
});
