/**
 * Domain errors. Services throw these; the one error middleware (http/problem.ts) turns them into
 * RFC 9457 problem documents. `code` is the stable identifier clients (and the settings page) switch
 * on; each code has exactly one HTTP status, declared here and nowhere else.
 */
export const PROBLEM_STATUS = {
  // http layer
  invalid_body: 400,
  invalid_parameter: 400,
  malformed_request: 400,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  payload_too_large: 413,
  unsupported_media_type: 415,
  headers_too_large: 431,
  internal_error: 500,
  cross_origin_refused: 403,
  unknown_host: 421,
  // auth
  missing_token: 401,
  invalid_token: 401,
  forbidden_role: 401,
  invalid_credentials: 401,
  invalid_invite: 401,
  too_many_attempts: 429,
  too_many_invites: 408,
  invite_not_found: 404,
  // users
  user_not_found: 404,
  username_taken: 409,
  invalid_username: 400,
  last_admin: 409,
  // API keys
  api_key_not_found: 404,
  too_many_api_keys: 409,
  // library, playlists, collections
  track_not_found: 404,
  album_not_found: 404,
  artist_not_found: 404,
  playlist_not_found: 404,
  collection_not_found: 404,
  mix_not_found: 404,
  not_owner: 403,
  // bookmarks, internet radio stations
  too_many_bookmarks: 409,
  radio_station_not_found: 404,
  too_many_radio_stations: 409,
  // streaming
  range_not_satisfiable: 416,
  busy: 503,
  // start
  starting: 503,
  // stats
  stats_private: 401,
  too_many_steps: 400,
  // listening history (imports, exports, year in review)
  import_not_found: 404,
  import_empty: 400,
  import_unrecognised: 400,
  import_archive_refused: 400,
  import_queue_full: 409,
  // artwork
  artwork_not_found: 404,
  track_file_not_found: 404,
  file_not_writable: 409,
  invalid_position: 400,
  unsupported_format: 400,
  // updates
  update_check_failed: 400,
  update_failed: 400,
  update_in_progress: 409,
  update_check_locked: 409,
  no_release: 404,
} as const satisfies Record<string, number>;

export type ProblemCode = keyof typeof PROBLEM_STATUS;
type ProblemStatus = (typeof PROBLEM_STATUS)[ProblemCode];
/** The codes answered with status S, so a helper such as notFound() cannot be given a 409's code. */
type CodeOf<S extends ProblemStatus> = {
  [C in ProblemCode]: (typeof PROBLEM_STATUS)[C] extends S ? C : never;
}[ProblemCode];

export const PROBLEM_CODES = Object.keys(PROBLEM_STATUS) as ProblemCode[];

const TITLES: Record<ProblemStatus, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  421: 'Misdirected Request',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** The problem document's `title`: the status's reason phrase, as RFC 9457 asks for `about:blank`. */
export const problemTitle = (code: ProblemCode): string => TITLES[PROBLEM_STATUS[code]];

export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ProblemCode,
    readonly detail: string,
    /** Extra members of the problem document, e.g. `{ parameter: 'pos' }`. */
    readonly extra: Record<string, unknown> = {},
    /** Response headers the problem needs, e.g. `Retry-After`. */
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'AppError';
    this.status = PROBLEM_STATUS[code];
  }
}

export const badRequest = (code: CodeOf<400>, detail: string, extra?: Record<string, unknown>) =>
  new AppError(code, detail, extra);

export const invalidParameter = (parameter: string, detail: string) =>
  new AppError('invalid_parameter', detail, { parameter });

export const unauthorized = (code: CodeOf<401>, detail: string) =>
  new AppError(code, detail, {}, { 'WWW-Authenticate': 'Bearer' });

export const notFound = (code: CodeOf<404>, detail: string) => new AppError(code, detail);

export const forbidden = (code: CodeOf<403>, detail: string) => new AppError(code, detail);

export const conflict = (code: CodeOf<409>, detail: string) => new AppError(code, detail);

export const tooManyRequests = (code: CodeOf<429>, detail: string, retryAfterSeconds: number) =>
  new AppError(code, detail, {}, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });

/** The message of anything thrown, for logs and notices (a thrown non-Error becomes its string). */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
