import { describe, expect, it } from 'vitest';
import { makeUser } from '../factories/users.js';
import { createInvite } from '../support/invites.js';
import { postJson, useTestServer } from '../support/server.js';

interface Welcome {
  dismissed: boolean;
  tracks: number;
  musicFolders: { path: string; status: string }[];
  steps: { connectPhone: boolean; inviteFamily: boolean; changePassword: boolean };
}

const t = useTestServer();
const welcome = async (): Promise<Welcome> =>
  (await (await t.call('/api/welcome', { token: t.adminToken })).json()) as Welcome;

describe('GET /api/welcome', () => {
  it('ticks each first step from what the server knows: an app password, an invite, a second account', async () => {
    const fresh = await welcome();
    expect(fresh).toMatchObject({ dismissed: false, tracks: 0, musicFolders: [] });
    // The test server's Admin password is configured, not generated.
    expect(fresh.steps).toEqual({ connectPhone: false, inviteFamily: false, changePassword: true });

    await postJson(t, '/api/users/api-keys/create', { name: "Alex's phone" }, t.adminToken);
    expect((await welcome()).steps.connectPhone).toBe(true);

    await createInvite(t);
    expect((await welcome()).steps.inviteFamily).toBe(true);
  });

  it('is for Admins only: a member cannot act on it', async () => {
    const member = await makeUser(t, { role: 'User' });
    expect((await t.call('/api/welcome', { token: member.token })).status).toBe(401);
    expect((await postJson(t, '/api/welcome/dismiss', {}, member.token)).status).toBe(401);
  });

  it('stays dismissed once an Admin closes it, across a restart', async () => {
    const closed = await postJson(t, '/api/welcome/dismiss', {}, t.adminToken);
    expect(closed.status).toBe(200);
    expect(((await closed.json()) as Welcome).dismissed).toBe(true);
    Object.assign(t, await t.restart());
    expect((await welcome()).dismissed).toBe(true);
  });
});
