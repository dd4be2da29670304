import type { Readable } from 'node:stream';
import { z } from 'zod';
import type { Principal, Role } from '../domain/user.js';
import { AppError } from '../errors.js';
import { idPath, parseParams, type RawParams } from './params.js';

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
  /** GET, HEAD (a GET route answering HEAD: its body is not sent) or POST. */
  method: string;
  /** A request header's value (the first one), or null; for the few routes that read more than the above. */
  header: (name: string) => string | null;
}

export interface UploadedFile {
  /** A temporary file the body parser wrote; removed after the request. */
  tempPath: string;
  size: number;
}

/**
 * What a handler answers. `body` is JSON unless `type` says otherwise (then a Buffer, or a
 * StreamBody for bodies that are read from disk or made while they are sent).
 */
export interface Reply {
  status?: number;
  body: unknown;
  type?: string;
  headers?: Record<string, string>;
  /** Runs once the response has been sent (e.g. start an installer and exit). */
  afterSend?: () => Promise<void> | void;
}

/**
 * A body sent as it is read or made (audio). The stream is destroyed when the response ends or the
 * client goes away, so whatever feeds it (a file, an encoder process) must stop on its destruction.
 */
export class StreamBody {
  constructor(
    readonly stream: Readable,
    /** The byte count when known in advance (Content-Length); otherwise the body is chunked. */
    readonly length: number | null = null,
  ) {}
}

export type Handler = (request: Request) => Promise<Reply> | Reply;

export type Access = readonly Role[] | 'public';

/** The groups of the route table, in the order the API reference and the OpenAPI document list them. */
export const ROUTE_GROUPS = {
  server: 'Health, server information and this document',
  'settings page': 'The settings page served to browsers',
  auth: 'Sign-in, invite codes and token checks',
  users: 'Accounts',
  ratings: 'Ratings of tracks, albums and artists',
  stats: 'Play logging and statistics',
  library: 'Tracks, albums, artists and scanning',
  playback: 'Streaming, downloads and search',
  playlists: 'Playlists and collections',
  artwork: 'Track pictures and stored artwork',
  updates: 'Checking for and installing updates',
} as const;
export type RouteGroup = keyof typeof ROUTE_GROUPS;

export interface RouteDef {
  method: 'GET' | 'POST';
  /**
   * Also takes a stream token (never a login token) as `?access_token=` (RFC 6750), for what a
   * browser loads by address and cannot give a header: the page's <audio> element. The request log
   * redacts it.
   */
  queryToken?: boolean;
  path: string;
  /** The part of the API it belongs to (its OpenAPI tag). */
  group: RouteGroup;
  /** Who may call it; checked by the auth middleware before the handler runs. */
  access: Access;
  /** How the body is read: small JSON/form bodies (default) or multipart uploads. */
  body?: 'form' | 'multipart';
  /** The most a multipart route's upload may hold (default: UPLOAD_LIMIT_BYTES, 20 MiB). */
  uploadLimitBytes?: number;
  handler: Handler;
  /** What the route takes and answers; the OpenAPI document is made from it (http/native/openapi.ts). */
  doc?: EndpointDoc;
  /**
   * A statistics read: it needs the plays and their counting, not the library, and is answered
   * while the library is still read at start when the counting was saved (http/starting.ts).
   */
  statsRead?: boolean;
}

/** A route of the route table: every one is documented. */
export type DocumentedRoute = RouteDef & { doc: EndpointDoc };

export type Shape = z.ZodRawShape;

/** A success (or other non-problem) response of an endpoint. */
export interface ResponseDoc {
  description: string;
  /** The JSON body. */
  json?: z.ZodType;
  /** A body that is not JSON: its media type (`image/*`, `text/html`, ...). */
  mediaType?: string;
  /** Further media types the same response may have (a download in the format asked for). */
  otherMediaTypes?: readonly string[];
  /** Response headers worth knowing, by name, with their descriptions. */
  headers?: Record<string, string>;
}

/** Problem statuses an endpoint's own rules give, each with the `code`s it may carry. */
export type ErrorCodes = Partial<
  Record<400 | 401 | 404 | 408 | 409 | 413 | 415 | 416 | 429 | 503, readonly string[]>
>;

/**
 * Everything the OpenAPI document says about an endpoint. `params` and `path` are the very shapes
 * the endpoint validates its request with, so the document cannot drift from the validation. The
 * problems every route of a kind gives (401 of protected routes, 400/413 of bodies, 400 of
 * parameters, 500) are added from the route itself.
 */
export interface EndpointDoc {
  summary: string;
  description?: string;
  /** Query parameters (GET), or parameters of the query string and the body (POST). */
  params: Shape;
  /** `:name` segments of the path. */
  path: Shape;
  /** Uploaded files of multipart routes (field name → description); all required. */
  files: Record<string, string>;
  responses: Record<number, ResponseDoc>;
  errors: ErrorCodes;
}

/** A handler together with its description; the route table lists these. */
export interface Endpoint {
  handler: Handler;
  doc: EndpointDoc;
}

type Parsed<S extends Shape> = z.output<z.ZodObject<S>>;

interface EndpointInput<P extends Shape, A extends Shape> {
  /** The validated parameters (query string and body). */
  params: Parsed<P>;
  /** The validated path segments. */
  path: Parsed<A>;
  request: Request;
}

interface CommonSpec<P extends Shape, A extends Shape> {
  summary: string;
  description?: string;
  params?: P;
  path?: A;
  files?: Record<string, string>;
  errors?: ErrorCodes;
}

/** An endpoint answering JSON: `handle` returns the body, which must fit `response`. */
export function endpoint<
  S extends z.ZodType,
  P extends Shape = Record<never, never>,
  A extends Shape = Record<never, never>,
>(
  spec: CommonSpec<P, A> & {
    /** The success status (200 unless told). */
    status?: 200 | 201 | 202;
    response: S;
    /** What the success response means; the summary when not given. */
    responseDescription?: string;
    handle: (input: EndpointInput<P, A>) => Promise<z.output<S>> | z.output<S>;
  },
): Endpoint {
  const status = spec.status ?? 200;
  return rawEndpoint({
    ...spec,
    responses: { [status]: { description: spec.responseDescription ?? spec.summary, json: spec.response } },
    handle: async (input) => ({ status, body: await spec.handle(input) }),
  });
}

/**
 * An endpoint answering one thing by the `:id` of its path, for its caller: a 404 with `notFound`
 * when the id names nothing the caller may see (the service throws it).
 */
export function byIdEndpoint<S extends z.ZodType, P extends Shape = Record<never, never>>(spec: {
  summary: string;
  description?: string;
  params?: P;
  response: S;
  notFound: string;
  handle: (caller: Principal, id: string, params: Parsed<P>) => Promise<z.output<S>> | z.output<S>;
}): Endpoint {
  const { notFound, handle, ...rest } = spec;
  return endpoint({
    ...rest,
    path: idPath,
    errors: { 404: [notFound] },
    handle: ({ path, params, request }) => handle(callerOf(request), path.id, params),
  });
}

/** An endpoint that makes its own replies (images, pages, replies with an after-send step). */
export function rawEndpoint<P extends Shape = Record<never, never>, A extends Shape = Record<never, never>>(
  spec: CommonSpec<P, A> & {
    responses: Record<number, ResponseDoc>;
    handle: (input: EndpointInput<P, A>) => Promise<Reply> | Reply;
  },
): Endpoint {
  const params = spec.params ?? ({} as P);
  const path = spec.path ?? ({} as A);
  const files = spec.files ?? {};
  const doc: EndpointDoc = {
    summary: spec.summary,
    ...(spec.description === undefined ? {} : { description: spec.description }),
    params,
    path,
    files,
    responses: spec.responses,
    errors: spec.errors ?? {},
  };
  // Made once per endpoint: zod 4 compiles an object schema into a fast parser, and compiling it
  // costs more than a log-play's whole work in the server.
  const pathSchema = z.object(path);
  const paramsSchema = z.object(params);
  const handler: Handler = (request) => {
    for (const field of Object.keys(files)) {
      if (!request.files[field])
        throw new AppError('invalid_parameter', `The multipart field '${field}' is required`, {
          parameter: field,
        });
    }
    return spec.handle({
      path: parseParams(pathSchema, request.path),
      params: parseParams(paramsSchema, request.params),
      request,
    });
  };
  return { handler, doc };
}

/** The caller of a protected route. */
export function callerOf(request: Request): Principal {
  if (!request.principal) throw new Error('callerOf used on a public route');
  return request.principal;
}
