import { hostname } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { isAllowedHost } from '../../server/http/host-check.js';
import { rawClient } from '../support/raw-http.js';
import { ADMIN_PASSWORD, startTestServer, useTestServer } from '../support/server.js';

/**
 * DNS rebinding: a page on the internet points a name it controls at the household's Melon and
 * drives it through a household member's browser, which sends that name in `Host`. Melon must answer
 * only to names that cannot be rebound from outside, and refuse the rest before any handler runs.
 */
const t = useTestServer();
let client: ReturnType<typeof rawClient>;
afterAll(() => client?.close());

const send = async (host: string, path = '/auth/login?username=admin&password=guess') => {
  client ??= rawClient(t.url);
  return client.send({ method: 'GET', path, headers: { host } });
};

describe('DNS rebinding', () => {
  it.each([
    ['evil.example', 'a name on the internet'],
    ['attacker.example:14524', "a name on the internet, with Melon's port"],
    ['melon.example.com.', 'a fully qualified name with its trailing dot'],
    ['localhost.evil.example', 'a name that starts like localhost'],
  ])('refuses the Host %s, %s, with 421 unknown_host', async (host) => {
    const response = await send(host);
    expect(response.status).toBe(421);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(response.body.toString()).code).toBe('unknown_host');
  });

  it('refuses a name it does not know before login or invite guessing runs', async () => {
    const invite = await send('evil.example', '/auth/code-authenticate?code=ABCD');
    expect(invite.status).toBe(421);
    // Twelve wrong passwords through a rebound name count for nothing: the Admin is not locked out.
    for (let i = 0; i < 12; i += 1) expect((await send('evil.example')).status).toBe(421);
    const { port } = new URL(t.url);
    const login = await send(
      `127.0.0.1:${port}`,
      `/auth/login?username=admin&password=${encodeURIComponent(ADMIN_PASSWORD)}`,
    );
    expect(login.status).toBe(200);
  });

  it('answers IP literals, localhost, its own host name and requests without a name', async () => {
    const { port } = new URL(t.url);
    for (const host of [
      `127.0.0.1:${port}`,
      '192.168.1.20',
      `[::1]:${port}`,
      'localhost',
      'LOCALHOST.',
      'app.localhost',
      hostname(),
      `${hostname().split('.')[0]}.local`,
    ]) {
      const response = await send(host, '/api/health');
      expect(response.status, host).toBe(200);
    }
  });

  it('answers a name set in MELON_ALLOWED_HOSTS end to end', async () => {
    const own = await startTestServer({ env: { MELON_ALLOWED_HOSTS: 'nas.lan,music.home.arpa' } });
    const ownClient = rawClient(own.url);
    try {
      const path = '/api/health';
      expect((await ownClient.send({ method: 'GET', path, headers: { host: 'nas.lan:14524' } })).status).toBe(
        200,
      );
      expect((await ownClient.send({ method: 'GET', path, headers: { host: 'other.lan' } })).status).toBe(
        421,
      );
    } finally {
      ownClient.close();
      await own.stop();
    }
  });

  it('accepts the names set in MELON_ALLOWED_HOSTS, and only those', () => {
    const allowed = new Set(['nas.lan', 'music.home.arpa']);
    expect(isAllowedHost('nas.lan:14524', allowed)).toBe(true);
    expect(isAllowedHost('NAS.LAN', allowed)).toBe(true);
    expect(isAllowedHost('music.home.arpa', allowed)).toBe(true);
    expect(isAllowedHost('other.lan', allowed)).toBe(false);
    expect(isAllowedHost('nas.lan.evil.example', allowed)).toBe(false);
    expect(isAllowedHost('2130706433', allowed)).toBe(true); // an IPv4 literal, however spelt
    expect(isAllowedHost('not a host', allowed)).toBe(false);
  });
});
