import { describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, postJson, problem, useTestServer } from '../support/server.js';

/**
 * Look-alike usernames: a name that reads like an existing one must not become a second account
 * (a household member could be fooled into trusting it), and invisible or text-direction characters
 * are refused outright. Names are compared by NFKC + case fold and shown as typed.
 */
const t = useTestServer();

const create = (username: string) =>
  postJson(t, '/api/users/create', { username, password: 'a long password 1' }, t.adminToken);

describe('look-alike usernames', () => {
  it('refuses NFD twins, fullwidth forms and case-folded forms of existing names', async () => {
    expect((await create('Zoë')).status).toBe(201);
    expect((await create('Straße')).status).toBe(201);
    for (const twin of ['Zoe\u0308', 'ZOË', 'Ｚｏë', 'zoë', 'STRASSE', 'strasse', 'ａｄｍｉｎ', 'ADMIN']) {
      const response = await create(twin);
      expect(response.status, JSON.stringify(twin)).toBe(409);
      expect((await problem(response)).code).toBe('username_taken');
    }
  });

  it('refuses zero-width, bidi and other format characters with 400 invalid_username', async () => {
    const hidden = [
      'ad\u200Bmin',
      'ad\u200Dmin',
      'admin\u202E',
      '\u202Eadmin',
      'ad\u2066min\u2069',
      'ad\u200Fmin',
      'ad\u2060min',
      'ad\u00ADmin',
      'ad\u180Emin',
    ];
    for (const name of hidden) {
      const response = await create(name);
      expect(response.status, JSON.stringify(name)).toBe(400);
      expect((await problem(response)).code).toBe('invalid_username');
    }
    const users = (await (await t.call('/api/users', { token: t.adminToken })).json()) as Array<{
      username: string;
    }>;
    expect(users).toHaveLength(3);
  });

  it('keeps a name as typed for display, and signs in under any of its look-alike spellings', async () => {
    const users = (await (await t.call('/api/users', { token: t.adminToken })).json()) as Array<{
      username: string;
    }>;
    expect(users.map((user) => user.username)).toEqual(expect.arrayContaining(['Zoë', 'Straße']));
    const login = await postJson(t, '/auth/login', { username: 'ＡＤＭＩＮ', password: ADMIN_PASSWORD });
    expect(login.status).toBe(200);
  });
});
