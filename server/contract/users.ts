import { z } from 'zod';
import { utc } from './common.js';

/** The roles (docs/API.md, Roles). Server is a device that redeemed an invite code. */
export const ROLES = ['Admin', 'User', 'Pass', 'Server'] as const;
export type Role = (typeof ROLES)[number];

/** Roles a person's account can have; Server exists only as a short-lived token. */
export const ACCOUNT_ROLES = ['Admin', 'User', 'Pass'] as const;
export type AccountRole = (typeof ACCOUNT_ROLES)[number];

/** What an invite can make: never an Admin, so a code read aloud cannot hand over the household. */
export const INVITE_ROLES = ['User', 'Pass'] as const;
export type InviteRole = (typeof INVITE_ROLES)[number];

export const userSchema = z
  .object({
    id: z.string(),
    username: z.string(),
    role: z.enum(ACCOUNT_ROLES),
    publicStats: z.boolean(),
    createdAt: utc(),
    lastLogin: utc().nullable(),
  })
  .meta({ id: 'User', description: 'A user; never the password hash.' });
/** What clients see of a user: never the hash or the token version. */
export type User = z.output<typeof userSchema>;

/** What an Admin's list adds to each user: the time of their latest play. */
export const listedUserSchema = userSchema
  .extend({ lastActivity: utc().nullable().meta({ description: 'The latest play (null: none yet)' }) })
  .meta({ id: 'ListedUser' });
export type ListedUser = z.output<typeof listedUserSchema>;

export const apiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    createdAt: utc(),
    lastUsedAt: utc()
      .nullable()
      .meta({ description: 'Updated at most once a minute; null before first use' }),
    lastUsedBy: z
      .string()
      .nullable()
      .meta({ description: "The app of the last use that named itself (Subsonic's `c`), e.g. DSub" }),
    tokenSignIn: z.boolean().meta({
      description:
        'Whether Subsonic token sign-in (t + s) works with it: true for every app password; false for ' +
        'keys made before app passwords, which still work as apiKey, p and a bearer token',
    }),
  })
  .meta({ id: 'ApiKey', description: 'An app password (API key); never the password itself.' });
export type ApiKey = z.output<typeof apiKeySchema>;

/** The answer of creating a key: the only time the key itself is shown. */
export const newApiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    key: z
      .string()
      .regex(/^melon_[A-Za-z0-9_-]{43}$/)
      .meta({
        description:
          'The app password, shown only in this answer: a Subsonic app takes it as the password ' +
          '(token or plain sign-in) or as apiKey; other clients send `Authorization: Bearer <key>`',
      }),
    createdAt: utc(),
  })
  .meta({ id: 'NewApiKey' });
export type NewApiKey = z.output<typeof newApiKeySchema>;
