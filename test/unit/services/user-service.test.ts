import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../server/clock.js';
import type { AccountRole, UserRecord } from '../../../server/domain/user.js';
import { AppError } from '../../../server/errors.js';
import { UserService } from '../../../server/services/user-service.js';
import { RatingsRepo } from '../../../server/store/ratings-repo.js';
import { UsersRepo } from '../../../server/store/users-repo.js';
import { principalOf } from '../../factories/accounts.js';

let dir: string;
let repo: UsersRepo;
let users: UserService;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'melon-user-service-'));
  repo = await UsersRepo.open(join(dir, 'users.json'));
  users = new UserService(repo, [await RatingsRepo.open(join(dir, 'ratings.json'))], new ManualClock());
});
afterEach(() => rm(dir, { recursive: true, force: true }));

let counter = 0;
async function addUser(role: AccountRole): Promise<UserRecord> {
  counter += 1;
  const user: UserRecord = {
    id: `user-${counter}`,
    username: `user-${counter}`,
    // Never verified here.
    passwordHash: { algorithm: 'scrypt', salt: '', hash: '', N: 2, r: 1, p: 1, keyLength: 32 },
    role,
    publicStats: false,
    publicStatsChosen: true,
    tokenVersion: 0,
    createdAt: 0,
    lastLogin: null,
  };
  expect(await repo.add(user)).toBe('added');
  return user;
}

const outcome = (attempt: Promise<unknown>) =>
  attempt.then(
    () => 'deleted',
    (error: unknown) => (error instanceof AppError ? `${error.status} ${error.code}` : String(error)),
  );

describe('UserService.delete', () => {
  it('refuses to delete the last Admin with 409 last_admin', async () => {
    const admin = await addUser('Admin');
    await addUser('User');
    expect(await outcome(users.delete(admin.id))).toBe('409 last_admin');
    expect(repo.findById(admin.id)).toBeDefined();
  });

  it('keeps one Admin when the Admins are deleted at the same time', async () => {
    const first = await addUser('Admin');
    const second = await addUser('Admin');
    const outcomes = await Promise.all([outcome(users.delete(first.id)), outcome(users.delete(second.id))]);
    expect(outcomes).toEqual(['deleted', '409 last_admin']);
    expect(repo.list().filter((user) => user.role === 'Admin')).toEqual([second]);
  });

  it('deletes Users, and answers 404 for someone already gone', async () => {
    await addUser('Admin');
    const user = await addUser('User');
    const outcomes = await Promise.all([outcome(users.delete(user.id)), outcome(users.delete(user.id))]);
    expect(outcomes).toEqual(['deleted', '404 user_not_found']);
  });
});

describe('the generated first password', () => {
  it('is remembered as generated until its owner changes it, so the welcome card can tick the step', async () => {
    const first = await users.ensureFirstAdmin('admin', null);
    const admin = repo.findByUsername('admin')!;
    expect(admin.passwordGenerated).toBe(true);
    await users.changePassword(principalOf(admin), {
      currentPassword: first!.generatedPassword!,
      newPassword: 'a household password',
    });
    expect(repo.findByUsername('admin')!.passwordGenerated).toBe(false);
  });

  it('is not marked generated when the password was configured', async () => {
    await users.ensureFirstAdmin('admin', 'configured password');
    expect(repo.findByUsername('admin')!.passwordGenerated).toBeUndefined();
  });
});
