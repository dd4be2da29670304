import { z } from 'zod';
import { utc } from './common.js';
import { ROLES } from './users.js';

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

export const inviteSchema = z
  .object({ code: z.string().regex(/^[A-Z2-9]{4}$/), expiresAt: utc() })
  .meta({ id: 'Invite' });
export type Invite = z.output<typeof inviteSchema>;

/** `/auth/check`: the caller's token, checked. */
export const tokenCheckSchema = z.object({
  valid: z.literal(true),
  userId: z.string().nullable(),
  username: z.string().nullable(),
  role: z.enum(ROLES),
  expiresAt: utc(),
});
export type TokenCheck = z.output<typeof tokenCheckSchema>;
