import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../server/clock.js';
import { AppError } from '../../../server/errors.js';
import { AuthService } from '../../../server/services/auth-service.js';
import { CREDENTIAL_CACHE_MS, CredentialCache } from '../../../server/services/credential-cache.js';
import { hashPassword } from '../../../server/services/passwords.js';
import { TokenSigner } from '../../../server/services/tokens.js';
import { UsersRepo } from '../../../server/store/users-repo.js';
import { makeUserRecord } from '../../factories/accounts.js';

const stamp = { id: 'u1', passwordHash: 'hash-1', tokenVersion: 0 };

describe('CredentialCache', () => {
  it('remembers a verified pair until it expires', () => {
    const clock = new ManualClock();
    const cache = new CredentialCache(clock);
    cache.remember('anna', 'secret', stamp);
    expect(cache.lookup('anna', 'secret', stamp)).toBe('u1');
    expect(cache.lookup('anna', 'Secret', stamp)).toBeNull();
    expect(cache.lookup('bob', 'secret', stamp)).toBeNull();
    clock.advance(CREDENTIAL_CACHE_MS);
    expect(cache.lookup('anna', 'secret', stamp)).toBeNull();
  });

  it('forgets a pair once the password, the token version or the account changed', () => {
    const cache = new CredentialCache(new ManualClock());
    for (const changed of [
      { ...stamp, passwordHash: 'hash-2' },
      { ...stamp, tokenVersion: 1 },
      { ...stamp, id: 'u2' },
      undefined,
    ]) {
      cache.remember('anna', 'secret', stamp);
      expect(cache.lookup('anna', 'secret', changed)).toBeNull();
      // Dropped, not only skipped: the old account state does not bring it back.
      expect(cache.lookup('anna', 'secret', stamp)).toBeNull();
    }
  });
});

describe('AuthService.verifyCredentials', () => {
  let dir: string;
  let users: UsersRepo;
  let auth: AuthService;
  const clock = new ManualClock();
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'melon-verify-'));
    users = await UsersRepo.open(join(dir, 'users.json'));
    auth = new AuthService(users, new TokenSigner(Buffer.alloc(32, 1), clock), clock, 3600);
    await users.add(
      makeUserRecord({
        id: 'u1',
        username: 'Anna',
        role: 'Pass',
        passwordHash: await hashPassword('right password'),
      }),
    );
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const code = (attempt: Promise<unknown>) =>
    attempt.then(
      () => 'ok',
      (error: unknown) => (error instanceof AppError ? error.code : String(error)),
    );

  it('answers the account, records no sign-in, and shares login’s lock', async () => {
    const principal = await auth.verifyCredentials('anna', 'right password', '10.0.0.1');
    expect(principal).toMatchObject({ userId: 'u1', username: 'Anna', role: 'Pass', inviteId: null });
    expect(users.findById('u1')!.lastLogin).toBeNull();
    for (let i = 0; i < 10; i++)
      expect(await code(auth.verifyCredentials('anna', `wrong ${i}`, '10.0.0.2'))).toBe(
        'invalid_credentials',
      );
    expect(await code(auth.login('anna', 'right password', '10.0.0.2'))).toBe('too_many_attempts');
    expect(await code(auth.verifyCredentials('anna', 'right password', '10.0.0.2'))).toBe(
      'too_many_attempts',
    );
  });

  it('stops accepting a remembered password once it was changed', async () => {
    await auth.verifyCredentials('anna', 'right password', '10.0.0.1');
    const user = users.findById('u1')!;
    await users.update('u1', {
      passwordHash: await hashPassword('new password'),
      tokenVersion: user.tokenVersion + 1,
    });
    expect(await code(auth.verifyCredentials('anna', 'right password', '10.0.0.1'))).toBe(
      'invalid_credentials',
    );
    expect(await code(auth.verifyCredentials('anna', 'new password', '10.0.0.1'))).toBe('ok');
  });
});
