import type { Principal, Role } from '../domain/user.js';
import type { RawParams } from './params.js';

/** What a handler gets: parsed-but-unvalidated parameters and the verified caller. No Koa. */
export interface Request {
  params: RawParams;
  /** `:name` segments of the route path. */
  path: Record<string, string>;
  /** Non-null on every route that lists roles. */
  principal: Principal | null;
  clientAddress: string;
  /** Uploaded files of multipart routes. */
  files: Record<string, UploadedFile>;
  /** The client's cache validator for conditional GETs. */
  ifNoneMatch: string | null;
  /** Resolves when the client goes away; long work may stop early. */
  signal: AbortSignal;
}

export interface UploadedFile {
  /** A temporary file the body parser wrote; removed after the request. */
  tempPath: string;
  size: number;
}

/** What a handler answers. `body` is JSON unless `type` says otherwise (then a Buffer). */
export interface Reply {
  status?: number;
  body: unknown;
  type?: string;
  headers?: Record<string, string>;
  /** Runs once the response has been sent (e.g. start an installer and exit). */
  afterSend?: () => Promise<void> | void;
}

export type Handler = (request: Request) => Promise<Reply> | Reply;

export type Access = readonly Role[] | 'public';

export interface RouteDef {
  method: 'GET' | 'POST';
  path: string;
  /** Who may call it; checked by the auth middleware before the handler runs. */
  access: Access;
  /** How the body is read: small JSON/form bodies (default) or multipart uploads. */
  body?: 'form' | 'multipart';
  handler: Handler;
}

export const ok = (body: unknown, status = 200): Reply => ({ status, body });

/** The caller of a protected route. */
export function callerOf(request: Request): Principal {
  if (!request.principal) throw new Error('callerOf used on a public route');
  return request.principal;
}
