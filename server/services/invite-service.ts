import { randomInt } from 'node:crypto';
import { MINUTE_MS, isoUtc, type Clock } from '../clock.js';
import type { Invite, InviteState, Token } from '../contract/auth.js';
import { newId } from '../domain/ids.js';
import type { InviteRecord, InviteRole, Principal } from '../domain/user.js';
import { AppError, notFound, unauthorized } from '../errors.js';
import type { Logger } from '../logger.js';
import { tokenResponse } from './auth-service.js';
import type { InvitesStore, UsersStore } from '../domain/ports.js';
import { FailureWindow, reserveAttempt } from './rate-limiter.js';
import type { TokenSigner } from './tokens.js';

/** No 0/O and 1/I: codes are read aloud and typed on TV remotes. */
export const INVITE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const INVITE_LENGTH = 4;
export const INVITE_LIFETIME_MS = 10 * MINUTE_MS;
export const SERVER_TOKEN_SECONDS = 10 * 60;
export const MAX_ACTIVE_INVITES = 5;
const ADDRESS_WINDOW_MS = MINUTE_MS;
const ADDRESS_MAX_FAILURES = 10;
const GLOBAL_WINDOW_MS = 10 * MINUTE_MS;
const GLOBAL_MAX_FAILURES = 50;
const GLOBAL_KEY = '*';

/**
 * Invite codes (docs/API.md, Authentication). With 32^4 ≈ 1M codes and at most 5 active, guessing is bounded by a
 * per-address limit and a global one that revokes every active code when crossed.
 */
export class InviteService {
  private readonly failuresByAddress: FailureWindow;
  private readonly failuresEverywhere: FailureWindow;

  constructor(
    /** The invites, and the accounts they made ("joined as"). */
    private readonly users: InvitesStore & Pick<UsersStore, 'findById'>,
    private readonly signer: TokenSigner,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    this.failuresByAddress = new FailureWindow(clock, ADDRESS_WINDOW_MS, ADDRESS_MAX_FAILURES);
    this.failuresEverywhere = new FailureWindow(clock, GLOBAL_WINDOW_MS, GLOBAL_MAX_FAILURES);
  }

  async create(admin: Principal, role: InviteRole = 'User'): Promise<Invite> {
    // A clash with another active code is rare (5 of ~1M); try a few fresh codes.
    for (let attempt = 0; attempt < 10; attempt++) {
      const now = this.clock.now();
      const invite: InviteRecord = {
        id: newId(),
        code: randomCode(),
        createdBy: admin.userId ?? '',
        createdAt: now,
        expiresAt: now + INVITE_LIFETIME_MS,
        usedAt: null,
        redeemedAt: null,
        revokedAt: null,
        role,
      };
      const outcome = await this.users.addInvite(invite, MAX_ACTIVE_INVITES);
      if (outcome === 'added') return this.view(invite, now);
      if (outcome === 'too_many') {
        throw new AppError(
          'too_many_invites',
          `At most ${MAX_ACTIVE_INVITES} invite codes may be active; try again later`,
        );
      }
    }
    throw new Error('could not find a free invite code');
  }

  listActive(): Invite[] {
    const now = this.clock.now();
    return this.users.activeInvites(now).map((invite) => this.view(invite, now));
  }

  /** Every invite of the last day, newest first, with what became of it. */
  listRecent(): Invite[] {
    const now = this.clock.now();
    return this.users.recentInvites().map((invite) => this.view(invite, now));
  }

  /** Revokes a code (any case) that could still make a user. */
  async revoke(code: string): Promise<Invite> {
    const now = this.clock.now();
    const normalised = code.trim().toUpperCase();
    const invite = isWellFormed(normalised)
      ? await this.users.revokeInvite(normalised, now, SERVER_TOKEN_SECONDS * 1000)
      : undefined;
    if (!invite) throw notFound('invite_not_found', `No invite code '${normalised}' that can still be used`);
    return this.view(invite, now);
  }

  /** Exchanges a code for a Server token valid 10 minutes; the code is spent by the first success. */
  async exchange(code: string, clientAddress: string): Promise<Token> {
    const withdraw = reserveAttempt(
      [[this.failuresByAddress, clientAddress]],
      'Too many wrong invite codes; try again later',
    );
    const normalised = code.trim().toUpperCase();
    const invite = isWellFormed(normalised)
      ? await this.users.consumeInvite(normalised, this.clock.now())
      : undefined;
    if (!invite) {
      await this.recordFailure();
      throw unauthorized('invalid_invite', 'The invite code is wrong, used or expired');
    }
    withdraw();
    const issued = this.signer.sign(
      { sub: null, role: 'Server', name: null, tv: 0, invite: invite.id },
      SERVER_TOKEN_SECONDS,
    );
    return tokenResponse(issued);
  }

  private view(invite: InviteRecord, now: number): Invite {
    const joined = invite.joinedUserId ? this.users.findById(invite.joinedUserId) : undefined;
    return {
      id: invite.id,
      code: invite.code,
      expiresAt: isoUtc(invite.expiresAt),
      state: stateOf(invite, now),
      joinedAs: joined?.username ?? null,
      role: invite.role ?? 'User',
    };
  }

  /** Counts a failure towards the alarm (the per-address one is already counted). */
  private async recordFailure(): Promise<void> {
    if (this.failuresEverywhere.record(GLOBAL_KEY) < GLOBAL_MAX_FAILURES) return;
    this.failuresEverywhere.clear(GLOBAL_KEY);
    const revoked = await this.users.revokeUnredeemedInvites(this.clock.now());
    this.logger.warn('invite code guessing detected; revoked every invite that has not made a user yet', {
      failures: GLOBAL_MAX_FAILURES,
      windowMinutes: GLOBAL_WINDOW_MS / MINUTE_MS,
      revoked,
    });
  }
}

function randomCode(): string {
  let code = '';
  for (let i = 0; i < INVITE_LENGTH; i++) code += INVITE_ALPHABET[randomInt(INVITE_ALPHABET.length)];
  return code;
}

function isWellFormed(code: string): boolean {
  return code.length === INVITE_LENGTH && [...code].every((char) => INVITE_ALPHABET.includes(char));
}

function stateOf(invite: InviteRecord, now: number): InviteState {
  if (invite.redeemedAt !== null) return 'joined';
  if (invite.revokedAt !== null) return 'revoked';
  if (invite.usedAt !== null) return 'used';
  return now < invite.expiresAt ? 'active' : 'expired';
}
