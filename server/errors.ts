/**
 * Domain errors. Services throw these; the one error middleware (http/problem.ts) turns them into
 * RFC 9457 problem documents. `code` is the stable identifier clients switch on.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    /** Extra members of the problem document, e.g. `{ parameter: 'pos' }`. */
    readonly extra: Record<string, unknown> = {},
    /** Response headers the problem needs, e.g. `Retry-After`. */
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'AppError';
  }
}

export const badRequest = (code: string, detail: string, extra?: Record<string, unknown>) =>
  new AppError(400, code, detail, extra);

export const invalidParameter = (parameter: string, detail: string) =>
  new AppError(400, 'invalid_parameter', detail, { parameter });

export const unauthorized = (code: string, detail: string) =>
  new AppError(401, code, detail, {}, { 'WWW-Authenticate': 'Bearer' });

export const notFound = (code: string, detail: string) => new AppError(404, code, detail);

export const conflict = (code: string, detail: string) => new AppError(409, code, detail);

export const tooManyRequests = (code: string, detail: string, retryAfterSeconds: number) =>
  new AppError(429, code, detail, {}, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });

/** The message of anything thrown, for logs and notices (a thrown non-Error becomes its string). */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
