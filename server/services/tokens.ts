import jwt from 'jsonwebtoken';
import { createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import type { Clock } from '../clock.js';
import { ROLES, type Role } from '../domain/user.js';

/** What a Melon JWT carries (docs/API.md, Tokens). `tv` is the user's tokenVersion at issue time. */
export interface TokenClaims {
  sub: string | null;
  role: Role;
  name: string | null;
  tv: number;
  invite?: string;
  /**
   * Set on a token that may do one thing only: `stream` may play audio from a route that takes its
   * token in the address (docs/API.md, Stream tokens). Absent on login and Server tokens.
   */
  scope?: TokenScope;
  iat: number;
  exp: number;
  jti: string;
}

/** The narrower kinds of token; a token with a scope is refused everywhere else. */
export const TOKEN_SCOPES = ['stream'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

export interface IssuedToken {
  token: string;
  claims: TokenClaims;
}

/** Signs and verifies HS256 JWTs with the data folder's secret; every other algorithm is refused. */
export class TokenSigner {
  /**
   * The secret as a KeyObject: given a Buffer, jsonwebtoken first tries (and fails) to parse it as a
   * public or private key on every call, which costs far more CPU per request than the signature.
   */
  private readonly key: KeyObject;

  constructor(
    secret: Buffer,
    private readonly clock: Clock,
  ) {
    this.key = createSecretKey(secret);
  }

  sign(subject: Omit<TokenClaims, 'iat' | 'exp' | 'jti'>, lifetimeSeconds: number): IssuedToken {
    const iat = Math.floor(this.clock.now() / 1000);
    const claims: TokenClaims = { ...subject, iat, exp: iat + lifetimeSeconds, jti: randomUUID() };
    return { token: jwt.sign(claims, this.key, { algorithm: 'HS256' }), claims };
  }

  /** The claims of a valid token, or null for anything else (bad signature, expired, malformed). */
  verify(token: string): TokenClaims | null {
    let payload: unknown;
    try {
      payload = jwt.verify(token, this.key, {
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
    (claims.invite === undefined || typeof claims.invite === 'string') &&
    (claims.scope === undefined || TOKEN_SCOPES.includes(claims.scope as TokenScope))
  );
}
