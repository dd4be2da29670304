import { z } from 'zod';
import { utc } from './common.js';
import { INVITE_ROLES, ROLES } from './users.js';

/** The body of a successful login or code exchange (docs/API.md, Tokens). */
export const tokenSchema = z
  .object({
    token: z.string(),
    tokenType: z.literal('Bearer'),
    expiresAt: utc(),
    // The service types the role as a string; the document names the roles it can be.
    role: z.string().meta({ enum: [...ROLES] }),
    userId: z.string().nullable().meta({ description: 'null for a Server token' }),
  })
  .meta({ id: 'Token' });
export type Token = z.output<typeof tokenSchema>;

/** `POST /api/users/stream-token`: a token that only plays audio, for the page's player. */
export const streamTokenSchema = z
  .object({
    token: z.string().meta({ description: 'Give it as `access_token` in a stream address' }),
    expiresAt: utc(),
  })
  .meta({ id: 'StreamToken' });
export type StreamToken = z.output<typeof streamTokenSchema>;

/**
 * What became of an invite code. active: can be exchanged; used: exchanged, the device has not made
 * its account yet; joined: the device made its account (`joinedAs`); expired; revoked (by an Admin
 * or the guessing alarm).
 */
export const INVITE_STATES = ['active', 'used', 'joined', 'expired', 'revoked'] as const;
export type InviteState = (typeof INVITE_STATES)[number];

/** An invite as the API answers it: the code, and what became of it. */
export const inviteSchema = z
  .object({
    id: z.string(),
    code: z.string().regex(/^[A-Z2-9]{4}$/),
    expiresAt: utc(),
    state: z.enum(INVITE_STATES),
    joinedAs: z.string().nullable().meta({ description: 'The username the device made, once joined' }),
    role: z.enum(INVITE_ROLES).meta({ description: 'The role of the account the code makes' }),
  })
  .meta({ id: 'Invite' });
export type Invite = z.output<typeof inviteSchema>;
/** What the desktop app reads of an invite (app/): the code and when it expires. */
export type InviteView = Pick<Invite, 'code' | 'expiresAt'>;

/** `/auth/check`: the caller's token, checked. */
export const tokenCheckSchema = z.object({
  valid: z.literal(true),
  userId: z.string().nullable(),
  username: z.string().nullable(),
  role: z.enum(ROLES),
  expiresAt: utc(),
});
export type TokenCheck = z.output<typeof tokenCheckSchema>;
