/**
 * The settings page talks to the server only through its HTTP API, like any other client. Every
 * failure becomes an ApiError carrying the problem document's `detail`, which the page shows.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'ApiError';
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST';
  query?: Record<string, string | number | boolean | null | undefined>;
  /** Sent as application/json. */
  json?: unknown;
  /** Sent as application/x-www-form-urlencoded. */
  fields?: Record<string, string>;
  /** Sent as multipart/form-data (uploads). */
  form?: FormData;
  /** Leave out the bearer token (sign-in). */
  anonymous?: boolean;
}

export class Api {
  constructor(
    private readonly token: () => string | null,
    /** Called when the server refuses the token itself (expired, revoked): the page signs out. */
    private readonly onTokenRefused: (detail: string) => void,
    private readonly base = '',
  ) {}

  async json<T>(path: string, options: RequestOptions = {}): Promise<T> {
    const response = await this.send(path, options);
    return (await response.json()) as T;
  }

  /** Images need the bearer token, so they are fetched as blobs and shown through object URLs. */
  async blob(path: string): Promise<Blob> {
    return (await this.send(path, {})).blob();
  }

  /** An image with its response headers (e.g. whether the default artwork is the built-in one). */
  async image(path: string): Promise<{ blob: Blob; headers: Headers }> {
    const response = await this.send(path, {});
    return { blob: await response.blob(), headers: response.headers };
  }

  private async send(path: string, options: RequestOptions): Promise<Response> {
    const headers = new Headers({ Accept: 'application/json' });
    const token = options.anonymous ? null : this.token();
    if (token) headers.set('Authorization', `Bearer ${token}`);
    let body: BodyInit | undefined;
    if (options.json !== undefined) {
      headers.set('Content-Type', 'application/json');
      body = JSON.stringify(options.json);
    } else if (options.fields) {
      body = new URLSearchParams(options.fields);
    } else if (options.form) {
      body = options.form;
    }
    let response: Response;
    try {
      response = await fetch(this.base + path + queryString(options.query), {
        method: options.method ?? (body ? 'POST' : 'GET'),
        headers,
        body,
        cache: 'no-store',
      });
    } catch {
      throw new ApiError(0, 'network', 'Could not reach the Melon server. Is it running?');
    }
    if (response.ok) return response;
    const error = await problemOf(response);
    if (token && (error.code === 'invalid_token' || error.code === 'missing_token'))
      this.onTokenRefused(error.detail);
    throw error;
  }
}

export function queryString(query: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== null && value !== undefined && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Reads an RFC 9457 problem; anything else still gives the user a sentence. */
export async function problemOf(response: Response): Promise<ApiError> {
  let body: { detail?: unknown; title?: unknown; code?: unknown } = {};
  try {
    body = (await response.json()) as typeof body;
  } catch {
    // Not JSON (a proxy's error page): fall back to the status line.
  }
  const detail =
    typeof body.detail === 'string' && body.detail
      ? body.detail
      : typeof body.title === 'string' && body.title
        ? body.title
        : `The server answered ${response.status} ${response.statusText}`.trim();
  return new ApiError(response.status, typeof body.code === 'string' ? body.code : 'http_error', detail);
}

export function errorText(error: unknown): string {
  if (error instanceof ApiError) return error.detail;
  return error instanceof Error ? error.message : String(error);
}
