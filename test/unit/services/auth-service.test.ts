import { beforeEach, describe, expect, it } from 'vitest';
import type { UserRecord } from '../../../server/domain/user.js';
import { AppError } from '../../../server/errors.js';
import { AuthService } from '../../../server/services/auth-service.js';
import { hashPassword } from '../../../server/services/passwords.js';
import { makeUserRecord, principalOf } from '../../factories/accounts.js';
import { newTestService } from '../../fakes/test-service.js';
import { problemOf } from '../../support/problem-of.js';

let t: ReturnType<typeof newTestService<typeof AuthService>>;
let alice: UserRecord;
beforeEach(async () => {
  t = newTestService(AuthService, { tokenTtlSeconds: 60 });
  alice = makeUserRecord({ username: 'Alice' });
  await t.fakes.users.add(alice);
});

async function failedLogin(username: string, password: string, address: string): Promise<AppError> {
  const error = await t.sut.login(username, password, address).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

describe('AuthService.login', () => {
  it('answers an unknown name and a wrong password alike: 401 invalid_credentials', async () => {
    await t.fakes.users.update(alice.id, { passwordHash: await hashPassword('right password') });
    const unknown = await failedLogin('nobody', 'right password', '192.0.2.1');
    const wrong = await failedLogin('alice', 'wrong password', '192.0.2.2');
    expect([unknown.status, unknown.code]).toEqual([401, 'invalid_credentials']);
    expect({ ...wrong, message: wrong.message }).toEqual({ ...unknown, message: unknown.message });

    const signedIn = await t.sut.login('ALICE', 'right password', '192.0.2.3');
    expect(signedIn).toMatchObject({ tokenType: 'Bearer', role: 'User', userId: alice.id });
    expect(t.fakes.users.findById(alice.id)!.lastLogin).toBe(t.clock.now());
  });
});

describe('AuthService.authenticate', () => {
  it("takes an account token while it matches the account's record", () => {
    const { token } = t.sut.issueFor(alice);
    expect(t.sut.authenticate(token)).toMatchObject({ userId: alice.id, role: 'User', inviteId: null });
  });

  it('refuses a token once its tokenVersion was bumped (a new password)', async () => {
    const { token } = t.sut.issueFor(alice);
    await t.fakes.users.update(alice.id, { tokenVersion: alice.tokenVersion + 1 });
    expect(t.sut.authenticate(token)).toBeNull();
  });

  it("refuses a token once the account's role changed", async () => {
    const { token } = t.sut.issueFor(alice);
    await t.fakes.users.update(alice.id, { role: 'Admin' });
    expect(t.sut.authenticate(token)).toBeNull();
  });

  it('refuses a token of a deleted account', async () => {
    await t.fakes.users.add(makeUserRecord({ role: 'Admin' }));
    const { token } = t.sut.issueFor(alice);
    expect(await t.fakes.users.remove(alice.id)).toBe('removed');
    expect(t.sut.authenticate(token)).toBeNull();
  });

  it('refuses an expired token and one signed by another key', () => {
    const { token } = t.sut.issueFor(alice);
    t.clock.advance(61_000);
    expect(t.sut.authenticate(token)).toBeNull();
    const other = newTestService(AuthService);
    expect(other.sut.authenticate(other.sut.issueFor(alice).token)).toBeNull();
  });

  it('takes a Server token until its invite has made one user, and never again', async () => {
    const admin = makeUserRecord({ role: 'Admin' });
    await t.fakes.users.add(admin);
    const { code } = await t.services.invites.create(principalOf(admin));
    const { token } = await t.services.invites.exchange(code, '192.0.2.1');
    const server = t.sut.authenticate(token);
    expect(server).toMatchObject({ userId: null, role: 'Server' });

    await t.services.users.create(server!, { username: 'newcomer', password: 'long enough password' });
    expect(t.sut.authenticate(token)).toBeNull();
    expect(
      await problemOf(() =>
        t.services.users.create(server!, { username: 'second', password: 'long password' }),
      ),
    ).toBe('401 invalid_token');
  });

  it('refuses a Server token whose invite was revoked', async () => {
    const admin = makeUserRecord({ role: 'Admin' });
    await t.fakes.users.add(admin);
    const { code } = await t.services.invites.create(principalOf(admin));
    const { token } = await t.services.invites.exchange(code, '192.0.2.1');
    await t.fakes.users.revokeUnredeemedInvites(t.clock.now());
    expect(t.sut.authenticate(token)).toBeNull();
  });
});
