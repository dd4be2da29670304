/** Turns a generated FuzzRequest into bytes on the wire. */
import { gzipSync } from 'node:zlib';
import type { RawRequest } from '../support/raw-http.js';
import type { BodyKind, FileKind, FuzzRequest, MultipartFlaw, PoolName, Ref, Value } from './generators.js';

export interface RenderContext {
  /** The server's own origin, `http://127.0.0.1:PORT`. */
  baseUrl: string;
  pools: Record<PoolName, string[]>;
  now: () => number;
  images: { png: Buffer; jpg: Buffer; webp: Buffer; notImage: Buffer };
  routes: Array<{ method: string; path: string }>;
  authorization: (request: FuzzRequest) => string | undefined;
}

const isRef = (value: unknown): value is Ref =>
  typeof value === 'object' && value !== null && ('$ref' in value || '$rel' in value);

/** Replaces pool references and clock-relative dates with concrete values. */
export function materialize(value: Value, ctx: RenderContext): Value {
  if (isRef(value)) {
    if ('$rel' in value) return new Date(ctx.now() + value.$rel).toISOString();
    const pool = ctx.pools[value.$ref];
    return pool.length === 0 ? `no-${value.$ref}` : pool[value.i % pool.length]!;
  }
  if (Array.isArray(value)) return value.map((item) => materialize(item, ctx));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, Value> = {};
    for (const [key, item] of Object.entries(value)) out[key] = materialize(item, ctx);
    return out;
  }
  return value;
}

/**
 * UTF-8 percent-encoding (lone surrogates become U+FFFD). `raw` then puts printable ASCII back as
 * it was (so `%00`, `%E0%A4%A` and `../` arrive as written), except the characters in `reserved`
 * that would change the request's structure.
 */
export function encode(text: string, raw: boolean, reserved: string): string {
  const encoded = encodeURIComponent(text.replace(/\p{Cs}/gu, '\uFFFD'));
  if (!raw) return encoded;
  return encoded.replace(/%([2-7][0-9A-F])/g, (escape, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return char === ' ' || char === '\x7f' || reserved.includes(char) ? escape : char;
  });
}

const scalar = (value: Value): string =>
  value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);

/** key=value pairs: arrays repeat the key, objects use bracket notation (qs reads it as nesting). */
function flatten(entries: Array<[string, Value]>): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [key, value] of entries) {
    if (Array.isArray(value)) for (const item of value.slice(0, 50)) out.push([key, scalar(item)]);
    else if (value !== null && typeof value === 'object')
      for (const [sub, item] of Object.entries(value)) out.push([`${key}[${sub}]`, scalar(item)]);
    else out.push([key, scalar(value)]);
  }
  return out;
}

function urlEncoded(entries: Array<[string, Value]>, raw: boolean, maxValue = Infinity): string {
  return flatten(entries)
    .map(([k, v]) => `${encode(k, raw, '&=#+?')}=${encode(v.slice(0, maxValue), raw, '&=#+?')}`)
    .join('&');
}

/** JSON text that keeps repeated keys (JSON.parse takes the last). */
function jsonText(entries: Array<[string, Value]>): string {
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`;
}

const pick = <T>(list: readonly T[], cut: number): T =>
  list[Math.min(list.length - 1, Math.floor(cut * list.length))]!;

function fileBytes(kind: FileKind, ctx: RenderContext, cut: number): Buffer {
  switch (kind) {
    case 'png':
      return ctx.images.png;
    case 'jpg':
      return ctx.images.jpg;
    case 'webp':
      return ctx.images.webp;
    case 'not-image':
      return ctx.images.notImage;
    case 'empty':
      return Buffer.alloc(0);
    default: {
      // Deterministic noise, or a real image cut short.
      const png = ctx.images.png;
      return cut < 0.5
        ? png.subarray(0, Math.floor(png.length * cut))
        : Buffer.alloc(300, Math.floor(cut * 255));
    }
  }
}

function multipart(
  request: FuzzRequest,
  entries: Array<[string, string]>,
  ctx: RenderContext,
): { type: string; body: Buffer } {
  const boundary = `----melonfuzz${Math.floor(request.cut * 1e9)}`;
  const parts: Buffer[] = [];
  const flaw: MultipartFlaw = request.flaw;
  for (const [name, value] of entries) {
    const disposition =
      flaw === 'nameless-part' ? 'form-data' : `form-data; name="${name.replace(/"/g, '%22')}"`;
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n${value}\r\n`));
  }
  const files = request.file === 'none' ? [] : request.file === 'two-files' ? ['file', 'file'] : ['file'];
  for (const field of files) {
    const kind = request.file === 'two-files' ? 'png' : request.file;
    const fileName = request.fileName.replace(/"/g, '%22').replace(/[\r\n]/g, '');
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\n` +
          `Content-Type: ${pick(['image/png', 'image/jpeg', 'application/octet-stream', 'text/plain'], request.cut)}\r\n\r\n`,
      ),
      fileBytes(kind, ctx, request.cut),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  let body = Buffer.concat(parts);
  if (flaw === 'truncated') body = body.subarray(0, Math.floor(body.length * request.cut));
  const type =
    flaw === 'no-boundary'
      ? 'multipart/form-data'
      : flaw === 'wrong-boundary'
        ? 'multipart/form-data; boundary=somethingelse'
        : `multipart/form-data; boundary=${boundary}`;
  return { type, body };
}

const BAD_JSON = [
  "{'id':'x'}",
  '{"id":"x",}',
  '{"id":undefined}',
  'nul',
  '\uFEFF{"id":"x"}',
  '{"id":"\\x41"}',
  '{"a":1}{"b":2}',
  '{"a":1e999}',
  '{"__proto__":{"id":"x","rating":"5"}}',
  '{"constructor":{"prototype":{"x":1}}}',
  '{"id":"\u0000"}',
  '{',
  '}',
  '\u0000',
];

function body(
  request: FuzzRequest,
  entries: Array<[string, Value]>,
  ctx: RenderContext,
): { type?: string; encoding?: string; body?: Buffer } {
  const kind: BodyKind = request.bodyKind;
  const json = jsonText(entries);
  const cut = request.cut;
  switch (kind) {
    case 'none':
      return cut < 0.2 ? { type: 'application/json' } : {};
    case 'json':
      return { type: 'application/json', body: Buffer.from(json) };
    case 'form':
      return {
        type: 'application/x-www-form-urlencoded',
        body: Buffer.from(urlEncoded(entries, request.rawEncoding)),
      };
    case 'multipart':
      return multipart(request, flatten(entries), ctx);
    case 'text':
      return { type: 'text/plain', body: Buffer.from(json) };
    case 'xml':
      return {
        type: 'application/xml',
        body: Buffer.from(
          `<params>${flatten(entries)
            .map(([k, v]) => `<p n="${k}">${v}</p>`)
            .join('')}</params>`,
        ),
      };
    case 'truncated-json':
      return { type: 'application/json', body: Buffer.from(json.slice(0, Math.floor(json.length * cut))) };
    case 'bad-json':
      return { type: 'application/json', body: Buffer.from(pick(BAD_JSON, cut)) };
    case 'json-array':
      return { type: 'application/json', body: Buffer.from(`[${json}]`) };
    case 'json-scalar':
      return {
        type: 'application/json',
        body: Buffer.from(pick(['"text"', '42', 'null', 'true', '""', '-0'], cut)),
      };
    case 'json-as-form':
      return { type: 'application/x-www-form-urlencoded', body: Buffer.from(json) };
    case 'form-as-json':
      return { type: 'application/json', body: Buffer.from(urlEncoded(entries, request.rawEncoding)) };
    case 'empty-json':
      return { type: 'application/json', body: Buffer.alloc(0) };
    case 'charset':
      return { type: `application/json${request.contentTypeVariant}`, body: Buffer.from(json) };
    case 'encoding': {
      const encoding = pick(
        ['gzip', 'deflate', 'br', 'identity', 'compress', 'gzip, gzip', 'valid-gzip'],
        cut,
      );
      if (encoding === 'valid-gzip')
        return { type: 'application/json', encoding: 'gzip', body: gzipSync(json) };
      return { type: 'application/json', encoding, body: Buffer.from(json) };
    }
    case 'deep-json': {
      const depth = 5_000 + Math.floor(cut * 50_000);
      const nested =
        cut < 0.5
          ? `${'['.repeat(depth)}${']'.repeat(depth)}`
          : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
      return { type: 'application/json', body: Buffer.from(`{"id":${nested}}`) };
    }
    case 'big-json':
      return {
        type: 'application/json',
        body: Buffer.from(JSON.stringify({ id: 'x'.repeat(1024 * 1024 + 100) })),
      };
  }
}

const MAX_QUERY = 8_000;

/** The request as it goes on the wire. */
export function render(request: FuzzRequest, ctx: RenderContext): RawRequest {
  const raw = request.rawEncoding;
  let path: string;
  if (request.route < 0) {
    path = request.unknownPath.startsWith('/') ? request.unknownPath : `/${request.unknownPath}`;
  } else {
    const template = ctx.routes[request.route]!.path;
    let n = 0;
    path = template.replace(/:(\w+)/g, () => {
      const value = materialize(request.pathValues[n++] ?? '', ctx);
      return encode(scalar(value).slice(0, 500), raw, '?#').slice(0, 2_000);
    });
    path += request.pathSuffix;
  }
  const query = request.query.map(([k, v]): [string, Value] => [k, materialize(v, ctx)]);
  const params = request.body.map(([k, v]): [string, Value] => [k, materialize(v, ctx)]);
  const sendsBody = request.method !== 'GET' && request.method !== 'HEAD';
  const isGetRoute = request.route >= 0 && ctx.routes[request.route]!.method === 'GET';
  // GET routes read the query string; POST routes the query (sometimes) and the body.
  const queryEntries = isGetRoute || request.route < 0 ? params : query;
  // Node refuses request heads over 16 KiB (431) before the app sees them: huge values go in bodies.
  const qs = urlEncoded(queryEntries, raw, MAX_QUERY).slice(0, MAX_QUERY);
  if (qs) path += (path.includes('?') ? '&' : '?') + qs;
  const headers: Record<string, string> = {};
  const authorization = ctx.authorization(request);
  if (authorization !== undefined) headers.authorization = authorization;
  if (request.ifNoneMatch) headers['if-none-match'] = request.cut < 0.5 ? '*' : '"abc"';
  if (request.origin !== null) headers.origin = request.origin.replace('$self', ctx.baseUrl);
  if (request.fetchSite !== null) {
    const [site, mode] = request.fetchSite.split(' ');
    headers['sec-fetch-site'] = site!;
    if (mode) headers['sec-fetch-mode'] = mode;
  }
  const rendered =
    sendsBody && !isGetRoute ? body(request, params, ctx) : sendsBody ? body(request, [], ctx) : {};
  if (rendered.type) headers['content-type'] = rendered.type;
  if (rendered.encoding) headers['content-encoding'] = rendered.encoding;
  return { method: request.method, path, headers, body: rendered.body };
}
