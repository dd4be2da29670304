import { z } from 'zod';
import { deletedSchema } from '../../../contract/common.js';
import { ACCOUNT_ROLES, listedUserSchema, userSchema } from '../../../contract/users.js';
import type { StatsService } from '../../../services/stats/stats-service.js';
import type { UserService } from '../../../services/user-service.js';
import { boolean, id, text } from '../../params.js';
import { callerOf, endpoint } from '../../endpoint.js';

/** Usernames: 1–64 characters, no control characters or surrounding spaces. */
const username = text(64)
  .refine((name) => name === name.trim() && !/\p{Cc}/u.test(name), {
    message: 'must not start or end with spaces or contain control characters',
  })
  .meta({
    description:
      'Unique ignoring case and Unicode look-alikes (NFKC); no surrounding spaces, invisible, control or text-direction characters',
  });
const password = text(256)
  .refine((value) => value.length >= 8, {
    message: 'must have at least 8 characters',
  })
  .meta({ minLength: 8 });

export function userHandlers(users: UserService, stats: StatsService) {
  return {
    create: endpoint({
      summary: 'Create a user',
      description:
        'A Server token (from an invite code) makes exactly one account, of the role its invite was made for (User unless the Admin chose Pass), whatever role it asks for; a refused attempt does not spend it.',
      params: {
        username,
        password,
        role: z
          .enum(ACCOUNT_ROLES, { error: 'must be Admin, User or Pass' })
          .optional()
          .meta({ description: 'User when not given' }),
      },
      status: 201,
      response: userSchema,
      responseDescription: 'The new user',
      errors: { 400: ['invalid_username'], 409: ['username_taken'] },
      handle: ({ params, request }) => users.create(callerOf(request), params),
    }),
    list: endpoint({
      summary: 'Every user, with the time of their latest play',
      response: z.array(listedUserSchema),
      handle: () => users.list().map((user) => ({ ...user, lastActivity: stats.lastActivity(user.id) })),
    }),
    setRole: endpoint({
      summary: "Change a user's role (revokes every token of the account)",
      params: {
        id: id(),
        role: z.enum(ACCOUNT_ROLES, { error: 'must be Admin, User or Pass' }),
      },
      response: userSchema,
      errors: { 404: ['user_not_found'], 409: ['last_admin'] },
      handle: ({ params }) => users.setRole(params.id, params.role),
    }),
    settings: endpoint({
      summary: "Change the caller's settings",
      params: { publicStats: boolean().meta({ description: 'Whether others may read my statistics' }) },
      response: userSchema,
      responseDescription: "The caller's user",
      handle: ({ params, request }) => users.setPublicStats(callerOf(request), params.publicStats),
    }),
    changePassword: endpoint({
      summary: 'Change a password (revokes every token of the account)',
      params: {
        userId: id()
          .optional()
          .meta({ description: "Admins only: reset another account's password without it" }),
        currentPassword: text(1024).optional().meta({ description: "Required for one's own account" }),
        newPassword: password,
      },
      response: userSchema,
      errors: { 401: ['invalid_credentials'], 404: ['user_not_found'], 429: ['too_many_attempts'] },
      handle: ({ params, request }) => users.changePassword(callerOf(request), params),
    }),
    delete: endpoint({
      summary: 'Delete a user (revokes every token of the account)',
      params: { id: id() },
      response: deletedSchema,
      errors: { 404: ['user_not_found'], 409: ['last_admin'] },
      handle: async ({ params }) => {
        await users.delete(params.id);
        return { deleted: true as const, id: params.id };
      },
    }),
  };
}
