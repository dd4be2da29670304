import { beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../../server/domain/user.js';
import { makeUser } from '../factories/users.js';
import { serverToken } from '../support/invites.js';
import { problem, useTestServer } from '../support/server.js';

/**
 * Walks the route table: every protected route must refuse no token, a bad token and each role it
 * does not list, before it reads parameters or touches anything. A new route cannot skip this.
 */
const t = useTestServer();
const tokens = {} as Record<Role, string>;

beforeAll(async () => {
  tokens.Admin = t.adminToken;
  tokens.User = (await makeUser(t, { role: 'User' })).token;
  tokens.Pass = (await makeUser(t, { role: 'Pass' })).token;
  tokens.Server = await serverToken(t);
});

const samplePath = (path: string) => path.replace(/:(\w+)/g, 'sample-$1');

describe('route table access', () => {
  it('lists every endpoint once, with its roles', () => {
    const keys = t.server.routes.map((route) => `${route.method} ${route.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toContain('GET /auth/invite');
  });

  it('refuses callers that are not allowed, on every protected route', async () => {
    const protectedRoutes = t.server.routes.filter((route) => route.access !== 'public');
    expect(protectedRoutes.length).toBeGreaterThan(5);
    for (const route of protectedRoutes) {
      const path = samplePath(route.path);
      const label = `${route.method} ${route.path}`;
      const send = (authorization?: string) =>
        t.call(path, {
          method: route.method,
          headers: authorization ? { Authorization: authorization } : {},
        });

      const anonymous = await send();
      expect(anonymous.status, label).toBe(401);
      expect(anonymous.headers.get('www-authenticate'), label).toMatch(/^Bearer/);
      expect((await problem(anonymous)).code, label).toBe('missing_token');

      const garbage = await send('Bearer not.a.jwt');
      expect((await problem(garbage)).code, label).toBe('invalid_token');

      for (const role of ROLES.filter((r) => route.access !== 'public' && !route.access.includes(r))) {
        const response = await send(`Bearer ${tokens[role]}`);
        expect(response.status, `${label} as ${role}`).toBe(401);
        expect((await problem(response)).code, `${label} as ${role}`).toBe('forbidden_role');
      }
    }
  });

  it('keeps the Server token unspent by all those refusals', async () => {
    expect((await t.call('/api/users', { token: tokens.Server })).status).toBe(401);
    const created = await t.call('/api/users/create', {
      method: 'POST',
      token: tokens.Server,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'after-walk', password: 'long enough' }),
    });
    expect(created.status).toBe(201);
  });
});
