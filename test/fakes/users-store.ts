import type { ApiKeyRecord } from '../../server/domain/api-key.js';
import type { AccountRole, InviteRecord, UserRecord } from '../../server/domain/user.js';
import { usernameKey } from '../../server/domain/username.js';
import type { ApiKeysStore, InvitesStore, UsersStore } from '../../server/domain/ports.js';
import {
  findActiveInvite,
  isActiveInvite,
  redeemInvite,
  refuseNewInvite,
  revocableInvite,
} from '../../server/domain/invite.js';

const sameName = (a: string, b: string) => usernameKey(a) === usernameKey(b);

/**
 * Accounts, invites and app passwords in memory, with UsersRepo's rules: names compared by
 * `usernameKey`, the last Admin kept, an invite redeemed in the same step as its user is added, a
 * user's keys removed with it. Every step is synchronous, so it is as atomic as the repo's write queue.
 */
export class FakeUsersStore implements UsersStore, InvitesStore, ApiKeysStore {
  readonly users: UserRecord[] = [];
  readonly invites: InviteRecord[] = [];
  apiKeys: ApiKeyRecord[] = [];

  count(): number {
    return this.users.length;
  }

  list(): readonly UserRecord[] {
    return this.users;
  }

  findById(id: string): UserRecord | undefined {
    return this.users.find((user) => user.id === id);
  }

  findByUsername(username: string): UserRecord | undefined {
    return this.users.find((user) => sameName(user.username, username));
  }

  add(
    user: UserRecord,
    redeemInviteId: string | null = null,
  ): Promise<'added' | 'username_taken' | 'invite_spent'> {
    if (this.users.some((other) => sameName(other.username, user.username)))
      return Promise.resolve('username_taken');
    if (redeemInviteId !== null) {
      if (!redeemInvite(this.findInvite(redeemInviteId), user)) return Promise.resolve('invite_spent');
    }
    this.users.push(user);
    return Promise.resolve('added');
  }

  update(id: string, patch: Partial<Omit<UserRecord, 'id'>>): Promise<UserRecord | undefined> {
    const user = this.findById(id);
    if (user) Object.assign(user, patch);
    return Promise.resolve(user);
  }

  remove(id: string): Promise<'removed' | 'not_found' | 'last_admin'> {
    const index = this.users.findIndex((record) => record.id === id);
    if (index < 0) return Promise.resolve('not_found');
    const admins = this.users.filter((user) => user.role === 'Admin').length;
    if (this.users[index]!.role === 'Admin' && admins === 1) return Promise.resolve('last_admin');
    this.users.splice(index, 1);
    this.apiKeys = this.apiKeys.filter((key) => key.userId !== id);
    return Promise.resolve('removed');
  }

  setRole(id: string, role: AccountRole): Promise<UserRecord | 'not_found' | 'last_admin'> {
    const user = this.findById(id);
    if (!user) return Promise.resolve('not_found');
    if (user.role === role) return Promise.resolve(user);
    const admins = this.users.filter((other) => other.role === 'Admin').length;
    if (user.role === 'Admin' && admins === 1) return Promise.resolve('last_admin');
    user.role = role;
    user.tokenVersion += 1;
    return Promise.resolve(user);
  }

  activeInvites(now: number): InviteRecord[] {
    return this.invites.filter((invite) => isActiveInvite(invite, now));
  }

  findInvite(id: string): InviteRecord | undefined {
    return this.invites.find((invite) => invite.id === id);
  }

  addInvite(invite: InviteRecord, maxActive: number): Promise<'added' | 'too_many' | 'code_clash'> {
    const refused = refuseNewInvite(this.invites, invite, maxActive);
    if (refused) return Promise.resolve(refused);
    this.invites.push(invite);
    return Promise.resolve('added');
  }

  consumeInvite(code: string, now: number): Promise<InviteRecord | undefined> {
    const invite = findActiveInvite(this.invites, code, now);
    if (invite) invite.usedAt = now;
    return Promise.resolve(invite ? { ...invite } : undefined);
  }

  recentInvites(): InviteRecord[] {
    return [...this.invites].sort((a, b) => b.createdAt - a.createdAt);
  }

  revokeInvite(code: string, now: number, serverTokenMs: number): Promise<InviteRecord | undefined> {
    const invite = revocableInvite(this.invites, code, now, serverTokenMs);
    if (invite) invite.revokedAt = now;
    return Promise.resolve(invite ? { ...invite } : undefined);
  }

  revokeUnredeemedInvites(now: number): Promise<number> {
    const open = this.invites.filter((invite) => invite.redeemedAt === null && invite.revokedAt === null);
    for (const invite of open) invite.revokedAt = now;
    return Promise.resolve(open.length);
  }

  apiKeysOf(userId: string): ApiKeyRecord[] {
    return this.apiKeys.filter((key) => key.userId === userId);
  }

  findApiKeyByHash(hash: string): ApiKeyRecord | undefined {
    return this.apiKeys.find((key) => key.hash === hash);
  }

  addApiKey(key: ApiKeyRecord, maxPerUser: number): Promise<'added' | 'too_many' | 'no_user'> {
    if (!this.findById(key.userId)) return Promise.resolve('no_user');
    if (this.apiKeysOf(key.userId).length >= maxPerUser) return Promise.resolve('too_many');
    this.apiKeys.push(key);
    return Promise.resolve('added');
  }

  removeApiKey(userId: string, id: string): Promise<boolean> {
    const before = this.apiKeys.length;
    this.apiKeys = this.apiKeys.filter((key) => !(key.id === id && key.userId === userId));
    return Promise.resolve(this.apiKeys.length < before);
  }

  touchApiKey(id: string, at: number, client: string | null = null): Promise<boolean> {
    const key = this.apiKeys.find((record) => record.id === id);
    if (key) {
      key.lastUsedAt = at;
      if (client !== null) key.lastUsedBy = client;
    }
    return Promise.resolve(key !== undefined);
  }
}
