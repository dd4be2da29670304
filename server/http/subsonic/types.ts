import type { Readable } from 'node:stream';
import type { AccountRole, Principal } from '../../domain/user.js';
import type { Request as HttpRequest } from '../endpoint.js';
import type { Presenter } from './presenter.js';
import type { SubsonicParams } from './params.js';
import type { Format, Payload } from './render.js';

/** What a Subsonic method gets: its parameters, the verified caller and a presenter for that caller. */
export interface MethodRequest {
  params: SubsonicParams;
  /** Null only for the public method (getOpenSubsonicExtensions). */
  caller: Principal | null;
  /** The player's name (`c`), used as the device of plays; null when not sent. */
  client: string | null;
  clientAddress: string;
  /** `http://host:port` as the client reached Melon, for URLs in answers (artist image URLs). */
  origin: string;
  present: Presenter;
  /** The answer's format (`f`): a method that sends bytes it keeps must send them in this one. */
  format: Format;
  /** The client's cache validator, for cover art. */
  ifNoneMatch: string | null;
  /**
   * The request as the native handlers see it, for the replies made by http/audio-reply.ts (ranges,
   * validators, HEAD), which stream and download share with the native API.
   */
  http: HttpRequest;
}

/** Audio or an image instead of a subsonic-response. */
export interface BinaryReply {
  binary: true;
  status?: number;
  body: Buffer | Readable | null;
  /** The body's length when known in advance (Content-Length). */
  length?: number | null;
  type?: string;
  headers?: Record<string, string>;
}

/** A payload is merged into the subsonic-response (`{album: {...}}`); `{}` is a plain "ok". */
export type MethodReply = Payload | BinaryReply;

export type MethodHandler = (request: MethodRequest) => Promise<MethodReply> | MethodReply;

export type MethodAccess = readonly AccountRole[] | 'public';

export interface SubsonicMethod {
  name: string;
  access: MethodAccess;
  handler: MethodHandler;
  /** Changes state: refused when a web page of another origin asks (http/cross-origin.ts). */
  writes: boolean;
}

export function isBinary(reply: MethodReply): reply is BinaryReply {
  return (reply as Partial<BinaryReply>).binary === true;
}

/** The caller of a method that lists roles. */
export function callerOf(request: MethodRequest): Principal {
  if (!request.caller) throw new Error('callerOf used on a public Subsonic method');
  return request.caller;
}
