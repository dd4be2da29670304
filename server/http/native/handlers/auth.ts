import { z } from 'zod';
import { isoUtc } from '../../../clock.js';
import { INVITE_ROLES } from '../../../contract/users.js';
import { inviteSchema, streamTokenSchema, tokenCheckSchema, tokenSchema } from '../../../contract/auth.js';
import type { AuthService } from '../../../services/auth-service.js';
import type { InviteService } from '../../../services/invite-service.js';
import { boolean, text } from '../../params.js';
import { callerOf, endpoint } from '../../endpoint.js';

const credentials = { username: text(256), password: text(1024) };

export function authHandlers(auth: AuthService, invites: InviteService) {
  return {
    login: endpoint({
      summary: 'Sign in with a username and password',
      description: 'POST keeps the password out of URLs and logs.',
      params: credentials,
      response: tokenSchema,
      responseDescription: 'A login token',
      errors: { 401: ['invalid_credentials'], 429: ['too_many_attempts'] },
      handle: ({ params, request }) => auth.login(params.username, params.password, request.clientAddress),
    }),
    invite: endpoint({
      summary: 'Make an invite code (valid 10 minutes, single use)',
      description:
        'The code makes one account of the chosen role: User (a member) or Pass (a speaker or wall display). ' +
        'An invite never makes an Admin.',
      params: {
        role: z
          .enum(INVITE_ROLES, { error: 'must be User or Pass' })
          .optional()
          .meta({ description: 'The role of the account the code makes; User when not given' }),
      },
      response: inviteSchema,
      errors: { 408: ['too_many_invites'] },
      handle: ({ params, request }) => invites.create(callerOf(request), params.role),
    }),
    listInvites: endpoint({
      summary: 'The active invite codes, or every code of the last day',
      description:
        'With `all=true` also used, joined (with `joinedAs`), expired and revoked codes of the last day, newest first.',
      params: { all: boolean().optional().meta({ description: 'Include codes that are no longer active' }) },
      response: z.array(inviteSchema),
      handle: ({ params }) => (params.all === true ? invites.listRecent() : invites.listActive()),
    }),
    revokeInvite: endpoint({
      summary: 'Revoke an invite code',
      description:
        'A code not yet exchanged stops working; a code exchanged whose device has not made its account yet cannot make it.',
      params: { code: text(64).meta({ description: 'The 4-character invite code, any case' }) },
      response: inviteSchema,
      errors: { 404: ['invite_not_found'] },
      handle: ({ params }) => invites.revoke(params.code),
    }),
    codeAuthenticate: endpoint({
      summary: 'Exchange an invite code for a Server token (valid 10 minutes)',
      params: { code: text(64).meta({ description: 'The 4-character invite code, any case' }) },
      response: tokenSchema,
      responseDescription: 'A Server token',
      errors: { 401: ['invalid_invite'], 429: ['too_many_attempts'] },
      handle: ({ params, request }) => invites.exchange(params.code, request.clientAddress),
    }),
    streamToken: endpoint({
      summary: 'A stream token: plays audio for 12 hours, good only as `access_token` of a stream',
      description:
        'For a player that must put its token in an address (a browser’s <audio> element). It is refused as ' +
        'a bearer token and on every other route, so a leaked address cannot act as the member; a password ' +
        'change, a role change or a deletion ends it like a login token.',
      response: streamTokenSchema,
      handle: ({ request }) => auth.issueStreamToken(callerOf(request)),
    }),
    check: endpoint({
      summary: "The caller's token, checked",
      response: tokenCheckSchema,
      handle: ({ request }) => {
        const caller = callerOf(request);
        return {
          valid: true as const,
          userId: caller.userId,
          username: caller.username,
          role: caller.role,
          expiresAt: isoUtc(caller.expiresAt),
        };
      },
    }),
  };
}
