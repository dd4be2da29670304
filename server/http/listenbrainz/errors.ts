import type Koa from 'koa';
import { AppError, messageOf } from '../../errors.js';
import type { Logger } from '../../logger.js';

/** An error answered in ListenBrainz's shape, `{"code": 400, "error": "..."}`. */
export class ListenBrainzError extends Error {
  constructor(
    readonly status: 400 | 401 | 404 | 405 | 413,
    message: string,
  ) {
    super(message);
    this.name = 'ListenBrainzError';
  }
}

export const badRequest = (message: string) => new ListenBrainzError(400, message);
export const unauthorized = (message: string) => new ListenBrainzError(401, message);

/**
 * The adapter's one error mapping: its own errors and Melon's (a service's AppError keeps its
 * status and says its detail) in ListenBrainz's JSON shape, and every unexpected fault as a 500 of
 * the same shape, logged, its message never sent.
 */
export function listenBrainzErrors(logger: Logger): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      let status = 500;
      let message = 'Something went wrong on the server.';
      if (error instanceof ListenBrainzError) {
        status = error.status;
        message = error.message;
      } else if (error instanceof AppError && error.status < 500) {
        status = error.status;
        message = error.detail;
      } else {
        logger.error('listenbrainz: unhandled error', { path: ctx.path, error: messageOf(error) });
      }
      ctx.status = status;
      ctx.type = 'application/json';
      ctx.body = { code: status, error: message };
    }
  };
}
