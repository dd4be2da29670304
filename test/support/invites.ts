import { postJson, type TestServer } from './server.js';

export async function createInvite(t: TestServer): Promise<{ code: string; expiresAt: string }> {
  const response = await t.call('/auth/invite', { token: t.adminToken });
  if (response.status !== 200) throw new Error(`invite failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as { code: string; expiresAt: string };
}

export async function serverToken(t: TestServer): Promise<string> {
  const { code } = await createInvite(t);
  const response = await t.call(`/auth/code-authenticate?code=${code}`);
  if (response.status !== 200) throw new Error(`exchange failed: ${response.status}`);
  return ((await response.json()) as { token: string }).token;
}

/** A household device makes its own account with the Server token its invite code gave it. */
export function createAccountWith(
  t: Pick<TestServer, 'call'>,
  token: string,
  account: { username: string; password: string; role?: string },
): Promise<Response> {
  return postJson(t, '/api/users/create', account, token);
}
