import { describe, expect, it } from 'vitest';
import { send } from '../support/attacker.js';
import { ADMIN_PASSWORD, ADMIN_USER, useTestServer } from '../support/server.js';

/**
 * Lockout abuse from the home network. Browsers send no Sec-Fetch-* headers to plain-HTTP LAN
 * addresses, so a cross-site `<img src=".../auth/login?username=admin&password=x">` on any web page
 * sends wrong logins from a household browser; a speaker with a stale password does the same. Such
 * failures must not lock the account for the household's other devices, and a device's own lock
 * grows with its failures instead of lasting a flat 15 minutes.
 */
const t = useTestServer();

const login = (username: string, password: string, from: string) =>
  send(t.url, {
    path: `/auth/login?username=${encodeURIComponent(username)}&password=${encodeURIComponent(password)}`,
    from,
  });

describe('lockout abuse', { timeout: 120_000 }, () => {
  it("ten wrong logins from one address do not lock the Admin out of the household's other devices", async () => {
    // The Admin has signed in from this address before (its settings page, say).
    expect((await login(ADMIN_USER, ADMIN_PASSWORD, '127.0.0.2')).status).toBe(200);
    // A web page open in a browser elsewhere in the house sends ten wrong logins.
    for (let i = 0; i < 10; i++) expect((await login(ADMIN_USER, `img-${i}`, '127.0.0.50')).status).toBe(401);
    expect((await login(ADMIN_USER, ADMIN_PASSWORD, '127.0.0.50')).status).toBe(429);
    // The Admin's own device is not locked by it.
    expect((await login(ADMIN_USER, ADMIN_PASSWORD, '127.0.0.2')).status).toBe(200);
    // A device the account has never signed in from waits while the guessing goes on (the price
    // of bounding guesses spread over many addresses).
    expect((await login(ADMIN_USER, ADMIN_PASSWORD, '127.0.0.51')).status).toBe(429);
    t.clock.advance(15 * 60_000);
  });

  it('a speaker with a stale password is held for 1, 2, 4, 8, then at most 15 minutes, and no one else is', async () => {
    const speaker = '127.0.0.70';
    expect((await login(ADMIN_USER, ADMIN_PASSWORD, speaker)).status).toBe(200);
    // The password changes elsewhere; the speaker keeps trying the old one.
    for (let i = 0; i < 10; i++) expect((await login(ADMIN_USER, 'old password', speaker)).status).toBe(401);
    const waits: number[] = [];
    for (let round = 0; round < 6; round++) {
      const held = await login(ADMIN_USER, 'old password', speaker);
      expect(held.status).toBe(429);
      const wait = Number(held.headers['retry-after']);
      waits.push(wait);
      // Meanwhile the household's other signed-in device is never held.
      expect((await login(ADMIN_USER, ADMIN_PASSWORD, '127.0.0.2')).status).toBe(200);
      t.clock.advance(wait * 1000);
      expect((await login(ADMIN_USER, 'old password', speaker)).status).toBe(401);
    }
    expect(waits).toEqual([60, 120, 240, 480, 900, 900]);
    // The right password, once the lock is over, works from the speaker again.
    t.clock.advance(15 * 60_000);
    expect((await login(ADMIN_USER, ADMIN_PASSWORD, speaker)).status).toBe(200);
  });
});
