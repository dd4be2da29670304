import type { OutgoingListen } from '../../domain/forwarding.js';

/** What one request to a ListenBrainz-compatible service came to. */
export type SendOutcome =
  /** Taken. `waitMs`: the service's rate limit says to wait that long before the next request. */
  | { kind: 'sent'; waitMs: number }
  /** 401: the token is wrong or revoked. */
  | { kind: 'token_refused'; message: string }
  /** Another 4xx: these listens will never be taken as they are. */
  | { kind: 'refused'; status: number; message: string }
  /** 429: wait `waitMs` (X-RateLimit-Reset-In), then send the same again. */
  | { kind: 'rate_limited'; waitMs: number | null }
  /** No answer, a 5xx or a redirect: send the same again later. */
  | { kind: 'retry'; code: 'unreachable' | 'server_error'; message: string };

export type ListenType = 'single' | 'import' | 'playing_now';

export interface ClientOptions {
  /** Sent as the User-Agent and ListenBrainz's `submission_client_version`. */
  version: string;
  /** A request that has not answered by then is given up (and retried later). */
  timeoutMs: number;
}

/** The most characters of a service's error message kept (it is shown to the member). */
const MESSAGE_CHARS = 200;

/**
 * Sends listens to a ListenBrainz-compatible service's submit-listens endpoint
 * (`<url>/1/submit-listens`, `Authorization: Token <token>`), in ListenBrainz's documented JSON
 * format. Redirects are not followed: the token goes only to the address the member gave.
 */
export class ListenBrainzClient {
  constructor(private readonly options: ClientOptions) {}

  async submit(
    url: string,
    token: string,
    type: ListenType,
    listens: readonly OutgoingListen[],
    /** Aborts the request when the server stops. */
    stop: AbortSignal,
  ): Promise<SendOutcome> {
    const body = JSON.stringify({
      listen_type: type,
      payload: listens.map((listen) => this.payloadOf(listen, type !== 'playing_now')),
    });
    let response: Response;
    try {
      response = await fetch(`${url}/1/submit-listens`, {
        method: 'POST',
        headers: {
          Authorization: `Token ${token}`,
          'Content-Type': 'application/json',
          'User-Agent': `Melon/${this.options.version}`,
        },
        body,
        redirect: 'manual',
        signal: AbortSignal.any([stop, AbortSignal.timeout(this.options.timeoutMs)]),
      });
    } catch (error) {
      return { kind: 'retry', code: 'unreachable', message: `No answer from ${url}: ${reasonOf(error)}` };
    }
    const message = await messageOf(response);
    const status = response.status;
    if (status >= 200 && status < 300) return { kind: 'sent', waitMs: rateLimitWait(response.headers) };
    if (status === 401) return { kind: 'token_refused', message: message || 'The token was refused' };
    if (status === 429) return { kind: 'rate_limited', waitMs: resetInMs(response.headers) };
    if (status >= 400 && status < 500)
      return { kind: 'refused', status, message: message || `Refused with HTTP ${status}` };
    if (status >= 300 && status < 400)
      return {
        kind: 'retry',
        code: 'server_error',
        message: `${url} redirects elsewhere (HTTP ${status}): give the address it points to`,
      };
    return { kind: 'retry', code: 'server_error', message: message || `HTTP ${status} from ${url}` };
  }

  private payloadOf(listen: OutgoingListen, withTime: boolean): Record<string, unknown> {
    const info: Record<string, unknown> = {
      submission_client: 'Melon',
      submission_client_version: this.options.version,
    };
    if (listen.client) info.media_player = listen.client;
    if (listen.durationMs !== null && listen.durationMs > 0) info.duration_ms = Math.round(listen.durationMs);
    if (listen.recordingMbid) info.recording_mbid = listen.recordingMbid;
    if (listen.releaseMbid) info.release_mbid = listen.releaseMbid;
    if (listen.trackNumber !== null) info.tracknumber = listen.trackNumber;
    const metadata: Record<string, unknown> = {
      artist_name: listen.artist,
      track_name: listen.title,
      ...(listen.album ? { release_name: listen.album } : {}),
      additional_info: info,
    };
    return withTime
      ? { listened_at: listen.listenedAt, track_metadata: metadata }
      : { track_metadata: metadata };
  }
}

/** ListenBrainz answers errors as `{"code": 400, "error": "…"}`; its words are kept, shortened. */
async function messageOf(response: Response): Promise<string> {
  let text: string;
  try {
    text = await response.text();
  } catch {
    return '';
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === 'object' && 'error' in parsed && typeof parsed.error === 'string')
      return clean(parsed.error);
  } catch {
    // Not JSON: a proxy's page, say nothing of it.
  }
  return '';
}

function clean(text: string): string {
  const flat = text.replace(/\p{Cc}+/gu, ' ').trim();
  return flat.length > MESSAGE_CHARS ? `${flat.slice(0, MESSAGE_CHARS - 1)}…` : flat;
}

function reasonOf(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'it took too long';
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return clean(cause instanceof Error ? cause.message : String(cause));
}

/** Seconds of X-RateLimit-Reset-In (or Retry-After), as ms; null when absent or unreadable. */
function resetInMs(headers: Headers): number | null {
  for (const name of ['X-RateLimit-Reset-In', 'Retry-After']) {
    const value = headers.get(name);
    if (value !== null && /^\d{1,7}$/.test(value.trim())) return Number(value.trim()) * 1000;
  }
  return null;
}

/** After a taken request: no remaining requests in the window means waiting until it resets. */
function rateLimitWait(headers: Headers): number {
  const remaining = headers.get('X-RateLimit-Remaining');
  if (remaining === null || remaining.trim() !== '0') return 0;
  return resetInMs(headers) ?? 0;
}
