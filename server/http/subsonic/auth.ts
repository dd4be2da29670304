import type { Principal } from '../../domain/user.js';
import type { AuthService } from '../../services/auth-service.js';
import { SubsonicError, SUBSONIC_CODES, missingParameter } from './errors.js';
import type { SubsonicParams } from './params.js';

/** Resolves an app password (API key) to its user; null when the key is unknown or revoked. */
export type ApiKeyVerifier = (
  apiKey: string,
  client: string | null,
) => Principal | null | Promise<Principal | null>;

/**
 * Who is calling, from the request's credentials (docs/API.md, Subsonic: Authentication):
 * - `apiKey` alone (OpenSubsonic's apiKeyAuthentication); with `u`, `p`, `t` or `s` as well: 43;
 * - `u` + `p` (plain or `enc:` + hex): the account password or an app password, checked like a
 *   login, under the same guessing limits;
 * - `u` + `t` + `s` with `t = md5(appPassword + s)`: only app passwords, whose sealed copies Melon
 *   can open; anything else (the account password, which Melon keeps only hashed) is 41;
 * - an Authorization header (a bearer token, Basic) instead of parameters: 42.
 * `client` is the app's name (`c`), shown beside the app password it used.
 */
export async function authenticateSubsonic(
  params: SubsonicParams,
  auth: AuthService,
  apiKeys: ApiKeyVerifier | null,
  clientAddress: string,
  authorizationHeader: string | null,
  client: string | null = null,
): Promise<Principal> {
  const apiKey = params.string('apiKey');
  const token = params.has('t') || params.has('s');
  if (apiKey !== undefined) {
    if (params.has('u') || params.has('p') || token)
      throw new SubsonicError(
        SUBSONIC_CODES.conflictingMechanisms,
        'Multiple conflicting authentication mechanisms provided: send apiKey alone, without u, p, t or s',
      );
    if (!apiKeys)
      throw new SubsonicError(
        SUBSONIC_CODES.mechanismNotSupported,
        'This Melon cannot check API keys yet; sign in with u and p',
      );
    const principal = await apiKeys(apiKey, client);
    if (!principal) throw new SubsonicError(SUBSONIC_CODES.invalidApiKey, 'Invalid API key');
    return principal;
  }
  if (token) {
    if (params.has('p'))
      throw new SubsonicError(
        SUBSONIC_CODES.conflictingMechanisms,
        'Multiple conflicting authentication mechanisms provided: send p or t + s, not both',
      );
    const username = params.required('u');
    const salt = params.string('s');
    const digest = params.string('t');
    if (digest === undefined || digest === '') throw missingParameter('t');
    if (salt === undefined || salt === '') throw missingParameter('s');
    const principal = auth.verifyAppToken(username, digest, salt, clientAddress, client);
    if (principal) return principal;
    throw new SubsonicError(
      SUBSONIC_CODES.tokenAuthNotSupported,
      'Token sign-in (t + s) works only with an app password: use an app password from the Apps ' +
        "page of Melon's settings instead of your account password, or send u + p",
    );
  }
  if (!params.has('u') && !params.has('p') && authorizationHeader !== null)
    throw new SubsonicError(
      SUBSONIC_CODES.mechanismNotSupported,
      'The Authorization header is not read here: send apiKey (an API key), or u and p',
    );
  const username = params.required('u');
  const password = params.string('p');
  if (password === undefined || password === '') throw missingParameter('p');
  return auth.verifyCredentials(username, decodePassword(password), clientAddress, client);
}

/** `enc:` + hex is the password's UTF-8 bytes in hexadecimal. */
function decodePassword(password: string): string {
  if (!password.startsWith('enc:')) return password;
  const hex = password.slice(4);
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(hex))
    throw new SubsonicError(SUBSONIC_CODES.wrongCredentials, 'Wrong username or password');
  return Buffer.from(hex, 'hex').toString('utf8');
}
