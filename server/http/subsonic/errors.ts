import { AppError, type ProblemCode } from '../../errors.js';

/** The error codes of the Subsonic API (and OpenSubsonic's 42–44) that Melon answers with. */
export const SUBSONIC_CODES = {
  generic: 0,
  missingParameter: 10,
  wrongCredentials: 40,
  tokenAuthNotSupported: 41,
  mechanismNotSupported: 42,
  conflictingMechanisms: 43,
  invalidApiKey: 44,
  notAuthorized: 50,
  notFound: 70,
} as const;

export type SubsonicCode = (typeof SUBSONIC_CODES)[keyof typeof SUBSONIC_CODES];

/** A failure answered as `status="failed"` with `error: {code, message}` (always HTTP 200). */
export class SubsonicError extends Error {
  constructor(
    readonly code: SubsonicCode,
    message: string,
    /** Response headers worth sending anyway (e.g. Retry-After). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'SubsonicError';
  }
}

export const missingParameter = (name: string) =>
  new SubsonicError(SUBSONIC_CODES.missingParameter, `Required parameter '${name}' is missing`);

export const notAuthorized = (message: string) => new SubsonicError(SUBSONIC_CODES.notAuthorized, message);

export const notFoundError = (message: string) => new SubsonicError(SUBSONIC_CODES.notFound, message);

/** Melon's problem codes in Subsonic's terms; every code not listed is the generic 0. */
const FROM_PROBLEM: Partial<Record<ProblemCode, SubsonicCode>> = {
  invalid_credentials: SUBSONIC_CODES.wrongCredentials,
  too_many_attempts: SUBSONIC_CODES.wrongCredentials,
  forbidden_role: SUBSONIC_CODES.notAuthorized,
  not_owner: SUBSONIC_CODES.notAuthorized,
  stats_private: SUBSONIC_CODES.notAuthorized,
  not_found: SUBSONIC_CODES.notFound,
  user_not_found: SUBSONIC_CODES.notFound,
  track_not_found: SUBSONIC_CODES.notFound,
  album_not_found: SUBSONIC_CODES.notFound,
  artist_not_found: SUBSONIC_CODES.notFound,
  playlist_not_found: SUBSONIC_CODES.notFound,
  radio_station_not_found: SUBSONIC_CODES.notFound,
  collection_not_found: SUBSONIC_CODES.notFound,
  mix_not_found: SUBSONIC_CODES.notFound,
  artwork_not_found: SUBSONIC_CODES.notFound,
  track_file_not_found: SUBSONIC_CODES.notFound,
};

/**
 * The Subsonic error for anything a method threw, or null for a fault of the server itself (the
 * caller logs it and answers a generic error without its details). A service's 400 keeps its
 * message; a parameter it calls required becomes 10.
 */
export function toSubsonicError(error: unknown): SubsonicError | null {
  if (error instanceof SubsonicError) return error;
  if (!(error instanceof AppError)) return null;
  if (error.code === 'invalid_parameter' && /is required$/.test(error.detail))
    return new SubsonicError(SUBSONIC_CODES.missingParameter, error.detail);
  const code = FROM_PROBLEM[error.code] ?? SUBSONIC_CODES.generic;
  const keepHeaders = error.code === 'too_many_attempts' || error.code === 'busy';
  return new SubsonicError(code, error.detail, keepHeaders ? error.headers : {});
}
