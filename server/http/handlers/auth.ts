import { ACCOUNT_ROLES } from '../../domain/user.js';
import type { AuthService } from '../../services/auth-service.js';
import type { InviteService } from '../../services/invite-service.js';
import type { UserService } from '../../services/user-service.js';
import { boolean, parseParams, text } from '../params.js';
import { callerOf, ok, type Request } from '../types.js';
import { isoUtc } from '../../clock.js';
import { z } from 'zod';

const credentials = { username: text(256), password: text(1024) };

export function authHandlers(auth: AuthService, invites: InviteService) {
  return {
    login: async (request: Request) => {
      const { username, password } = parseParams(credentials, request.params);
      return ok(await auth.login(username, password, request.clientAddress));
    },
    invite: async (request: Request) => ok(await invites.create(callerOf(request))),
    listInvites: () => ok(invites.listActive()),
    codeAuthenticate: async (request: Request) => {
      const { code } = parseParams({ code: text(64) }, request.params);
      return ok(await invites.exchange(code, request.clientAddress));
    },
    check: (request: Request) => {
      const caller = callerOf(request);
      return ok({
        valid: true,
        userId: caller.userId,
        username: caller.username,
        role: caller.role,
        expiresAt: isoUtc(caller.expiresAt),
      });
    },
  };
}

/** Usernames: 1–64 characters, no control characters or surrounding spaces. */
const username = text(64).refine((name) => name === name.trim() && !/\p{Cc}/u.test(name), {
  message: 'must not start or end with spaces or contain control characters',
});
const password = text(256).refine((value) => value.length >= 8, {
  message: 'must have at least 8 characters',
});

export function userHandlers(users: UserService) {
  return {
    create: async (request: Request) => {
      const params = parseParams(
        {
          username,
          password,
          role: z.enum(ACCOUNT_ROLES, { error: 'must be Admin, User or Pass' }).optional(),
        },
        request.params,
      );
      return ok(await users.create(callerOf(request), params), 201);
    },
    list: () => ok(users.list()),
    settings: async (request: Request) => {
      const { publicStats } = parseParams({ publicStats: boolean() }, request.params);
      return ok(await users.setPublicStats(callerOf(request), publicStats));
    },
    changePassword: async (request: Request) => {
      const params = parseParams(
        { userId: text(64).optional(), currentPassword: text(1024).optional(), newPassword: password },
        request.params,
      );
      return ok(await users.changePassword(callerOf(request), params));
    },
    delete: async (request: Request) => {
      const { id } = parseParams({ id: text(256) }, request.params);
      await users.delete(id);
      return ok({ deleted: true, id });
    },
  };
}
