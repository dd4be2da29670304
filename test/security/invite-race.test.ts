import { request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { send } from '../support/attacker.js';
import { serverToken } from '../support/invites.js';
import { useTestServer } from '../support/server.js';

/**
 * The invite-guessing alarm revokes every code not yet redeemed. A `users/create` whose Server token
 * was checked before the alarm, but whose write comes after it, must not commit: the revocation is
 * checked in the same write that marks the invite redeemed.
 */
const t = useTestServer();
const open: Array<{ destroy: () => void }> = [];
afterAll(() => open.forEach((req) => req.destroy()));

/** Starts a POST whose body arrives only when `finish` is called; resolves to status and body. */
function slowCreate(token: string, body: string) {
  const { hostname, port } = new URL(t.url);
  let finish = () => {};
  const done = new Promise<{ status: number; text: string }>((resolve, reject) => {
    const outgoing = request(
      {
        host: hostname,
        port: Number(port),
        method: 'POST',
        path: '/api/users/create',
        agent: false,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      },
    );
    outgoing.on('error', reject);
    open.push(outgoing);
    outgoing.write(body.slice(0, 5));
    finish = () => outgoing.end(body.slice(5));
  });
  return { done, finish: () => finish() };
}

describe('invite alarm race', () => {
  it('a users/create already past its token check when the alarm fires does not commit', async () => {
    const token = await serverToken(t);
    const body = JSON.stringify({ username: 'slipped-in', password: 'a long password 1' });
    const create = slowCreate(token, body);
    // The token is checked as soon as the headers arrive; the body is still on its way.
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (let from = 10; from < 15; from++) {
      for (let i = 0; i < 10; i++) {
        const guess = await send(t.url, {
          path: '/auth/code-authenticate?code=YYYY',
          from: `127.0.0.${from}`,
        });
        expect(guess.status).toBe(401);
      }
    }
    expect(t.logs.some((line) => line.includes('invite code guessing detected'))).toBe(true);
    create.finish();
    const answer = await create.done;
    expect(answer.status).toBe(401);
    const users = (await (await t.call('/api/users', { token: t.adminToken })).json()) as Array<{
      username: string;
    }>;
    expect(users.map((user) => user.username)).not.toContain('slipped-in');
  });
});
