import type { AccountRole } from '../../server/domain/user.js';
import { loginToken, postJson, type TestServer } from '../support/server.js';

export interface TestUser {
  id: string;
  username: string;
  password: string;
  role: AccountRole;
  token: string;
}

let counter = 0;

/** Makes a user through the API (as the Admin) and signs it in. */
export async function makeUser(
  t: Pick<TestServer, 'call' | 'adminToken'>,
  options: { role?: AccountRole; username?: string; password?: string } = {},
): Promise<TestUser> {
  counter += 1;
  const role = options.role ?? 'User';
  const username = options.username ?? `${role.toLowerCase()}-${counter}`;
  const password = options.password ?? `password-${counter}-long`;
  const response = await postJson(t, '/api/users/create', { username, password, role }, t.adminToken);
  if (response.status !== 201)
    throw new Error(`makeUser failed: ${response.status} ${await response.text()}`);
  const { id } = (await response.json()) as { id: string };
  return { id, username, password, role, token: await loginToken(t.call, username, password) };
}

/**
 * POST /api/users/change-password as the holder of `token`: `{ currentPassword, newPassword }` for
 * their own, `{ userId, newPassword }` for an Admin's reset; any other field is sent as given.
 */
export function changePassword(
  t: Pick<TestServer, 'call'>,
  token: string,
  body: Record<string, unknown>,
): Promise<Response> {
  return postJson(t, '/api/users/change-password', body, token);
}
