import type { Principal } from '../domain/user.js';
import { AppError, unauthorized } from '../errors.js';
import type { AuthService } from '../services/auth-service.js';
import type { Access } from './endpoint.js';

/**
 * Resolves the bearer token and enforces a route's access list. Every failure is a 401 (the
 * interface uses 401 for a missing role too), with `forbidden_role` when the token is good but its
 * role is not listed. `streamToken` is the `access_token` of a route that takes one, used only
 * without an Authorization header, and only a stream token is accepted there.
 */
export function authorize(
  auth: AuthService,
  access: Access,
  authorization: string | undefined,
  streamToken?: string,
): Principal | null {
  if (access === 'public') return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match && !authorization && streamToken) return allowed(access, auth.authenticateStream(streamToken));
  if (!match)
    throw unauthorized('missing_token', 'This endpoint needs a bearer token in the Authorization header');
  return allowed(access, auth.authenticate(match[1]!));
}

function allowed(access: readonly Principal['role'][], principal: Principal | null): Principal {
  if (!principal) throw unauthorized('invalid_token', 'The token is invalid, expired or revoked');
  if (!access.includes(principal.role)) {
    throw new AppError(
      'forbidden_role',
      `The ${principal.role} role may not call this endpoint`,
      {},
      {
        'WWW-Authenticate': 'Bearer error="insufficient_scope"',
      },
    );
  }
  return principal;
}
