import type { ApiKeyRecord } from '../domain/api-key.js';
import { usernameKey } from '../domain/username.js';
import type { AccountRole, InviteRecord, UserRecord } from '../domain/user.js';
import type { InvitesStore, UsersStore } from '../domain/ports.js';
import {
  findActiveInvite,
  isActiveInvite,
  redeemInvite,
  refuseNewInvite,
  revocableInvite,
} from '../domain/invite.js';
import { JsonDocument, type Migrations, type Versioned } from './json-document.js';

interface UsersFile extends Versioned {
  users: UserRecord[];
  invites: InviteRecord[];
  apiKeys: ApiKeyRecord[];
}

const sameName = (a: string, b: string) => usernameKey(a) === usernameKey(b);

/** Invite records older than this are dropped: they only matter while their token can live. */
const INVITE_RETENTION_MS = 24 * 60 * 60_000;

/**
 * Version 2 adds API keys (an older Melon refuses the file rather than lose them) and
 * `publicStatsChosen`: `publicStats` now defaults to true, and only a user who never chose follows a
 * default. A version-1 record cannot tell a chosen `false` from the old default `false` (nothing
 * recorded the choice), so every stored value is kept as a choice: showing someone's listening who
 * asked for privacy is the worse mistake. docs/API.md, Users.
 */
export const USERS_MIGRATIONS: Migrations = {
  1: (old) => ({
    ...old,
    apiKeys: [],
    users: ((old['users'] as Record<string, unknown>[] | undefined) ?? []).map((user) => ({
      ...user,
      publicStatsChosen: true,
    })),
  }),
};

/**
 * Users, invite codes and API keys share one file, so that "mark the invite redeemed" and "add the
 * user" are one atomic write, and so are "delete the user" and "delete their API keys".
 */
export class UsersRepo implements UsersStore, InvitesStore {
  private constructor(private readonly doc: JsonDocument<UsersFile>) {}

  static async open(path: string): Promise<UsersRepo> {
    return new UsersRepo(
      await JsonDocument.open<UsersFile>(
        path,
        { schemaVersion: 2, users: [], invites: [], apiKeys: [] },
        USERS_MIGRATIONS,
      ),
    );
  }

  list(): readonly UserRecord[] {
    return this.doc.data.users;
  }

  count(): number {
    return this.doc.data.users.length;
  }

  findById(id: string): UserRecord | undefined {
    return this.doc.data.users.find((user) => user.id === id);
  }

  findByUsername(username: string): UserRecord | undefined {
    return this.doc.data.users.find((user) => sameName(user.username, username));
  }

  /**
   * Adds a user unless the name is taken (checked inside the write queue, so two concurrent requests
   * for one name cannot both succeed). `redeemInviteId` marks a Server token's invite as spent in the
   * same write; if it is already spent or was revoked (the guessing alarm may fire while the request
   * is under way, after its token was checked), nothing is added.
   */
  add(
    user: UserRecord,
    redeemInviteId: string | null = null,
  ): Promise<'added' | 'username_taken' | 'invite_spent'> {
    return this.doc.mutate((data) => {
      if (data.users.some((other) => sameName(other.username, user.username))) return 'username_taken';
      if (redeemInviteId !== null) {
        const invite = data.invites.find((record) => record.id === redeemInviteId);
        if (!redeemInvite(invite, user)) return 'invite_spent';
      }
      data.users.push(user);
      return 'added';
    });
  }

  /** Applies `patch` to the user; false when the user is gone. */
  update(id: string, patch: Partial<Omit<UserRecord, 'id'>>): Promise<UserRecord | undefined> {
    return this.doc.mutate(
      (data) => {
        const user = data.users.find((record) => record.id === id);
        if (user) Object.assign(user, patch);
        return user;
      },
      (user) => user !== undefined,
    );
  }

  /**
   * Removes the user unless it is the last Admin (checked inside the write queue, so deleting the
   * Admins at the same time cannot remove them all).
   */
  remove(id: string): Promise<'removed' | 'not_found' | 'last_admin'> {
    return this.doc.mutate(
      (data) => {
        const index = data.users.findIndex((record) => record.id === id);
        if (index < 0) return 'not_found';
        const admins = data.users.filter((user) => user.role === 'Admin').length;
        if (data.users[index]!.role === 'Admin' && admins === 1) return 'last_admin';
        data.users.splice(index, 1);
        data.apiKeys = data.apiKeys.filter((key) => key.userId !== id);
        return 'removed';
      },
      (outcome) => outcome === 'removed',
    );
  }

  /**
   * Changes a user's role and revokes its tokens, unless that would leave no Admin (checked inside
   * the write queue, as for `remove`).
   */
  setRole(id: string, role: AccountRole): Promise<UserRecord | 'not_found' | 'last_admin'> {
    return this.doc.mutate(
      (data) => {
        const user = data.users.find((record) => record.id === id);
        if (!user) return 'not_found';
        if (user.role === role) return user;
        const admins = data.users.filter((other) => other.role === 'Admin').length;
        if (user.role === 'Admin' && admins === 1) return 'last_admin';
        user.role = role;
        user.tokenVersion += 1;
        return user;
      },
      (outcome) => typeof outcome === 'object',
    );
  }

  // --- invite codes -------------------------------------------------------------------------------

  activeInvites(now: number): InviteRecord[] {
    return this.doc.data.invites.filter((invite) => isActiveInvite(invite, now));
  }

  /** Every invite still kept (up to a day past its expiry), newest first. */
  recentInvites(): InviteRecord[] {
    return [...this.doc.data.invites].sort((a, b) => b.createdAt - a.createdAt);
  }

  /**
   * Revokes the newest invite with this code that could still make a user: not yet exchanged and
   * not expired, or exchanged but its one user not made yet (the Server token is refused then).
   */
  revokeInvite(code: string, now: number, serverTokenMs: number): Promise<InviteRecord | undefined> {
    return this.doc.mutate(
      (data) => {
        const invite = revocableInvite(data.invites, code, now, serverTokenMs);
        if (invite) invite.revokedAt = now;
        return invite ? { ...invite } : undefined;
      },
      (invite) => invite !== undefined,
    );
  }

  findInvite(id: string): InviteRecord | undefined {
    return this.doc.data.invites.find((invite) => invite.id === id);
  }

  /**
   * Stores a new invite if fewer than `maxActive` are active and its code is not active already.
   * The check and the insert happen in one step of the write queue.
   */
  addInvite(invite: InviteRecord, maxActive: number): Promise<'added' | 'too_many' | 'code_clash'> {
    return this.doc.mutate(
      (data) => {
        const refused = refuseNewInvite(data.invites, invite, maxActive);
        if (refused) return refused;
        data.invites = data.invites.filter(
          (other) => invite.createdAt - other.expiresAt < INVITE_RETENTION_MS,
        );
        data.invites.push(invite);
        return 'added';
      },
      (outcome) => outcome === 'added',
    );
  }

  /** Marks the active invite with this code used and returns it; exactly one caller can win a code. */
  consumeInvite(code: string, now: number): Promise<InviteRecord | undefined> {
    // A wrong code changes nothing, so it costs no write: guesses must not make the disk work.
    return this.doc.mutate(
      (data) => {
        const invite = findActiveInvite(data.invites, code, now);
        if (invite) invite.usedAt = now;
        return invite ? { ...invite } : undefined;
      },
      (invite) => invite !== undefined,
    );
  }

  /**
   * Revokes every invite that has not made a user yet: codes not exchanged, and codes exchanged
   * whose Server token could still make one (a guessed code must not survive the revocation).
   */
  revokeUnredeemedInvites(now: number): Promise<number> {
    return this.doc.mutate(
      (data) => {
        const open = data.invites.filter((invite) => invite.redeemedAt === null && invite.revokedAt === null);
        for (const invite of open) invite.revokedAt = now;
        return open.length;
      },
      (revoked) => revoked > 0,
    );
  }

  // --- API keys ----------------------------------------------------------------------------------

  apiKeysOf(userId: string): ApiKeyRecord[] {
    return this.doc.data.apiKeys.filter((key) => key.userId === userId);
  }

  findApiKeyByHash(hash: string): ApiKeyRecord | undefined {
    return this.doc.data.apiKeys.find((key) => key.hash === hash);
  }

  /**
   * Stores a key if its user exists and has fewer than `maxPerUser` (checked in the same step of
   * the write queue, so parallel creations cannot pass the limit, nor add a key to a user being
   * deleted).
   */
  addApiKey(key: ApiKeyRecord, maxPerUser: number): Promise<'added' | 'too_many' | 'no_user'> {
    return this.doc.mutate(
      (data) => {
        if (!data.users.some((user) => user.id === key.userId)) return 'no_user';
        if (data.apiKeys.filter((other) => other.userId === key.userId).length >= maxPerUser)
          return 'too_many';
        data.apiKeys.push(key);
        return 'added';
      },
      (outcome) => outcome === 'added',
    );
  }

  /** Removes a key of this user; false when the user has no key with that id. */
  removeApiKey(userId: string, id: string): Promise<boolean> {
    return this.doc.mutate(
      (data) => {
        const index = data.apiKeys.findIndex((key) => key.id === id && key.userId === userId);
        if (index < 0) return false;
        data.apiKeys.splice(index, 1);
        return true;
      },
      (removed) => removed,
    );
  }

  /** Records a key's use (and the app that named itself, if any); nothing is written when the key is gone. */
  touchApiKey(id: string, at: number, client: string | null = null): Promise<boolean> {
    return this.doc.mutate(
      (data) => {
        const key = data.apiKeys.find((record) => record.id === id);
        if (key) {
          key.lastUsedAt = at;
          if (client !== null) key.lastUsedBy = client;
        }
        return key !== undefined;
      },
      (touched) => touched,
    );
  }

  flush(): Promise<void> {
    return this.doc.flush();
  }
}
