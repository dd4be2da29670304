import jwt from 'jsonwebtoken';
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import { ROLES, type Role } from '../domain/user.js';

/** What a Melon JWT carries (contract §1). `tv` is the user's tokenVersion at issue time. */
export interface TokenClaims {
  sub: string | null;
  role: Role;
  name: string | null;
  tv: number;
  invite?: string;
  iat: number;
  exp: number;
  jti: string;
}

export interface IssuedToken {
  token: string;
  claims: TokenClaims;
}

/** Signs and verifies HS256 JWTs with the data folder's secret; every other algorithm is refused. */
export class TokenSigner {
  constructor(
    private readonly secret: Buffer,
    private readonly clock: Clock,
  ) {}

  sign(subject: Omit<TokenClaims, 'iat' | 'exp' | 'jti'>, lifetimeSeconds: number): IssuedToken {
    const iat = Math.floor(this.clock.now() / 1000);
    const claims: TokenClaims = { ...subject, iat, exp: iat + lifetimeSeconds, jti: randomUUID() };
    return { token: jwt.sign(claims, this.secret, { algorithm: 'HS256' }), claims };
  }

  /** The claims of a valid token, or null for anything else (bad signature, expired, malformed). */
  verify(token: string): TokenClaims | null {
    let payload: unknown;
    try {
      payload = jwt.verify(token, this.secret, {
        algorithms: ['HS256'],
        clockTimestamp: Math.floor(this.clock.now() / 1000),
      });
    } catch {
      return null;
    }
    return isClaims(payload) ? payload : null;
  }
}

function isClaims(value: unknown): value is TokenClaims {
  if (typeof value !== 'object' || value === null) return false;
  const claims = value as Record<string, unknown>;
  return (
    (typeof claims.sub === 'string' || claims.sub === null) &&
    ROLES.includes(claims.role as Role) &&
    typeof claims.tv === 'number' &&
    typeof claims.exp === 'number' &&
    typeof claims.iat === 'number' &&
    typeof claims.jti === 'string' &&
    (claims.invite === undefined || typeof claims.invite === 'string')
  );
}
