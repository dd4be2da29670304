import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeUser } from '../factories/users.js';
import { send, type HostileResponse } from '../support/attacker.js';
import { createInvite, serverToken } from '../support/invites.js';
import { postJson, startTestServer, type TestServer } from '../support/server.js';

/**
 * Guessing passwords and invite codes (docs/API.md, Authentication), as an attacker on the household network would:
 * from many source addresses (127.0.0.x on the loopback network) and with forged proxy headers.
 * Each test gets its own server so that the failure windows start empty.
 */
let t: TestServer;
beforeEach(async () => {
  t = await startTestServer();
});
afterEach(() => t.stop());

const addresses = (count: number, first = 10) =>
  Array.from({ length: count }, (_, i) => `127.0.0.${first + i}`);

function login(username: string, password: string, from?: string, headers: Record<string, string> = {}) {
  return send(t.url, {
    method: 'POST',
    path: '/auth/login',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ username, password }),
    from,
  });
}

function exchange(code: string, from?: string, headers: Record<string, string> = {}) {
  return send(t.url, { path: `/auth/code-authenticate?code=${code}`, headers, from });
}

const codeOf = (response: HostileResponse) => (response.json() as { code?: string }).code;

// Every failed login costs a real scrypt: a generous budget for a busy two-core machine, no timing asserted.
describe('login guessing', { timeout: 120_000 }, () => {
  it('locks a username even when every guess comes from a different address', async () => {
    const victim = await makeUser(t, { username: 'victim' });
    for (const from of addresses(10))
      expect((await login('victim', `guess from ${from}`, from)).status).toBe(401);
    const blocked = await login('victim', victim.password, '127.0.0.99');
    expect(blocked.status).toBe(429);
    expect(codeOf(blocked)).toBe('too_many_attempts');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // Other accounts are not locked out by it.
    const other = await makeUser(t);
    expect((await login(other.username, other.password, '127.0.0.99')).status).toBe(200);
  });

  it('locks an address that forges X-Forwarded-For and X-Real-IP on every guess', async () => {
    for (let i = 0; i < 10; i++) {
      const spoof = `10.0.0.${i}`;
      const response = await login(`name-${i}`, 'xxxxxxxx', '127.0.0.20', {
        'X-Forwarded-For': spoof,
        'X-Real-IP': spoof,
        Forwarded: `for=${spoof}`,
      });
      expect(response.status).toBe(401);
    }
    const blocked = await login('admin', 'correct horse battery staple', '127.0.0.20', {
      'X-Forwarded-For': '10.9.9.9',
    });
    expect(blocked.status).toBe(429);
    // A different real address is not affected.
    expect((await login('admin', 'correct horse battery staple', '127.0.0.21')).status).toBe(200);
  });

  it('answers a locked unknown name exactly like a locked real one, so names cannot be probed', async () => {
    await makeUser(t, { username: 'real-person' });
    const lock = async (name: string, from: string) => {
      for (let i = 0; i < 10; i++) await login(name, `wrong-${i}`, from);
      return login(name, 'one more try', from);
    };
    const real = await lock('real-person', '127.0.0.30');
    const ghost = await lock('ghost-person', '127.0.0.31');
    expect([real.status, ghost.status]).toEqual([429, 429]);
    expect(real.json()).toEqual(ghost.json());
    expect(real.headers['retry-after']).toBe(ghost.headers['retry-after']);
  });

  it('counts guesses sent all at once: 60 at one name from many addresses get ten 401s, the rest 429', async () => {
    const victim = await makeUser(t, { username: 'rushed' });
    const guesses = addresses(60, 100).map((from, i) => login('rushed', `guess-${i}`, from));
    const statuses = (await Promise.all(guesses)).map((response) => response.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(50);
    expect((await login('rushed', victim.password, '127.0.0.200')).status).toBe(429);
  });

  it('counts guesses sent all at once from one address at many names', async () => {
    const guesses = Array.from({ length: 60 }, (_, i) => login(`name-${i}`, 'xxxxxxxx', '127.0.0.22'));
    const statuses = (await Promise.all(guesses)).map((response) => response.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(50);
  });
});

describe('current-password guessing', { timeout: 120_000 }, () => {
  function changePassword(token: string, currentPassword: string, from?: string) {
    return send(t.url, {
      method: 'POST',
      path: '/api/users/change-password',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ currentPassword, newPassword: 'a brand new password' }),
      from,
    });
  }

  it('locks changing a password after 10 wrong current passwords, even the right one, like login', async () => {
    const victim = await makeUser(t);
    for (const from of addresses(10, 130))
      expect((await changePassword(victim.token, `guess from ${from}`, from)).status).toBe(401);
    const blocked = await changePassword(victim.token, victim.password, '127.0.0.140');
    expect(blocked.status).toBe(429);
    expect(codeOf(blocked)).toBe('too_many_attempts');
    expect(Number(blocked.headers['retry-after'])).toBe(15 * 60);
    // Other accounts are not affected.
    const other = await makeUser(t);
    expect((await changePassword(other.token, other.password)).status).toBe(200);
    t.clock.advance(15 * 60_000);
    expect((await changePassword(victim.token, victim.password)).status).toBe(200);
  });

  it('counts current-password guesses sent all at once', async () => {
    const victim = await makeUser(t);
    const guesses = Array.from({ length: 40 }, (_, i) => changePassword(victim.token, `guess-${i}`));
    const statuses = (await Promise.all(guesses)).map((response) => response.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30);
  });
});

describe('invite code guessing', () => {
  it('limits each address to 10 wrong codes a minute, forged proxy headers or not', async () => {
    const { code } = await createInvite(t);
    for (let i = 0; i < 10; i++) {
      const response = await exchange('ZZZZ', '127.0.0.40', { 'X-Forwarded-For': `10.0.1.${i}` });
      expect(response.status).toBe(401);
    }
    const blocked = await exchange(code, '127.0.0.40', { 'X-Forwarded-For': '10.0.2.1' });
    expect(blocked.status).toBe(429);
    expect(codeOf(blocked)).toBe('too_many_attempts');
    // The device that owns the code, elsewhere on the network, can still use it.
    expect((await exchange(code, '127.0.0.41')).status).toBe(200);
  });

  it('revokes every unredeemed code once 50 wrong codes arrive from many addresses, and logs no code', async () => {
    const invites = [await createInvite(t), await createInvite(t)];
    // A code exchanged before the alarm (perhaps guessed): its Server token must stop working too.
    const exchanged = await serverToken(t);
    let failures = 0;
    for (const from of addresses(5, 50)) {
      for (let i = 0; i < 10; i++) {
        const response = await exchange('YYYY', from);
        expect(response.status).toBe(401);
        failures += 1;
      }
    }
    expect(failures).toBe(50);
    const warning = t.logs.find(
      (line) => line.includes('WARN') && line.includes('invite code guessing detected'),
    );
    expect(warning).toContain('revoked=3');
    const withOldToken = await postJson(
      t,
      '/api/users/create',
      { username: 'late', password: 'a long password 1' },
      exchanged,
    );
    expect(withOldToken.status).toBe(401);
    for (const { code } of invites) {
      const response = await exchange(code, '127.0.0.60');
      expect(response.status).toBe(401);
      expect(codeOf(response)).toBe('invalid_invite');
      expect(t.logs.join('\n')).not.toContain(code);
    }
    expect(await (await t.call('/auth/invites', { token: t.adminToken })).json()).toEqual([]);
    // The household can carry on with a new code.
    const fresh = await createInvite(t);
    expect((await exchange(fresh.code, '127.0.0.61')).status).toBe(200);
  });

  it('does not count well-formed guesses differently from malformed ones', async () => {
    // Malformed codes (wrong length, characters outside the alphabet) are failures too: they cannot
    // be used to probe the limit for free.
    const guesses: Array<[guess: string, shape: string]> = [
      ['A', 'one letter'],
      ['AAAAA', 'one letter too many'],
      ['0O1I', 'the look-alikes the alphabet leaves out'],
      ['%00AA', 'a NUL escape, sent as text'],
      ['ab%20c', 'a space escape, sent as text'],
      ['ÄÖÜß', 'letters outside ASCII'],
      ['AAA', 'one letter too few'],
      ['AAAAAAAA', 'twice the length'],
      ['....', 'punctuation'],
      ['9999', 'well-formed, but no such code'],
    ];
    for (const [guess, shape] of guesses) {
      const response = await exchange(encodeURIComponent(guess), '127.0.0.70');
      expect(response.status, `${guess}: ${shape}`).toBe(401);
    }
    expect((await exchange('ZZZZ', '127.0.0.70')).status).toBe(429);
  });
});
