import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser, type TestUser } from '../factories/users.js';
import { postJson, useTestServer } from '../support/server.js';

/**
 * `change-password` must not tell a signed-in User or Pass account which user ids exist (404
 * user_not_found for an unknown id, 401 forbidden_role for a real one would). A non-Admin naming any
 * account but its own gets one answer, decided before the lookup. An Admin, who lists every
 * account anyway, still gets 404 user_not_found for an id that does not exist.
 */
let victim: TestUser;
let users: TestUser[];
const t = useTestServer();

beforeAll(async () => {
  victim = await makeUser(t);
  users = [await makeUser(t), await makeUser(t, { role: 'Pass' })];
});

async function changePassword(token: string, fields: Record<string, string>) {
  const response = await postJson(
    t,
    '/api/users/change-password',
    { newPassword: 'a new long password', ...fields },
    token,
  );
  return {
    status: response.status,
    authenticate: response.headers.get('www-authenticate'),
    body: (await response.json()) as Record<string, unknown>,
  };
}

describe('change-password with another account’s id', () => {
  it('answers a User or Pass account the same for an unknown id as for a real one', async () => {
    for (const caller of users) {
      const real = await changePassword(caller.token, { userId: victim.id, currentPassword: 'guess-1' });
      const unknown = await changePassword(caller.token, {
        userId: 'u-does-not-exist',
        currentPassword: 'guess-1',
      });
      expect(real, caller.role).toMatchObject({ status: 401, body: { code: 'forbidden_role' } });
      expect(unknown, caller.role).toEqual(real);
    }
  });

  it('answers a wrong current password of one’s own account with the same status and header', async () => {
    const [caller] = users;
    const wrong = await changePassword(caller!.token, { currentPassword: 'not my password' });
    const other = await changePassword(caller!.token, { userId: 'u-does-not-exist', currentPassword: 'x' });
    expect(wrong).toMatchObject({ status: 401, body: { code: 'invalid_credentials' } });
    expect([other.status, other.authenticate]).toEqual([wrong.status, wrong.authenticate]);
  });

  it('still tells an Admin that an id does not exist, and changes nothing', async () => {
    const unknown = await changePassword(t.adminToken, { userId: 'u-does-not-exist' });
    expect(unknown).toMatchObject({ status: 404, body: { code: 'user_not_found' } });
    // The victim's password is unchanged by everything above.
    const login = await postJson(t, '/auth/login', { username: victim.username, password: victim.password });
    expect(login.status).toBe(200);
  });
});
