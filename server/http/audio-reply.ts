import { Readable } from 'node:stream';
import { AppError } from '../errors.js';
import type {
  OriginalAudio,
  StreamOptions,
  StreamService,
  TranscodedAudio,
} from '../services/playback/stream-service.js';
import { parseByteRange } from './byte-range.js';
import { StreamBody, type Reply, type Request } from './endpoint.js';

/**
 * The HTTP side of playback (docs/API.md, Streaming): ranges, validators, HEAD and downloads over
 * the stream service's decisions. A Subsonic adapter answers `stream` and `download` with these too.
 */

const CACHE = 'private, no-cache';

/** `GET …/stream`: the original (ranges, validators) or a transcode sent while it is made. */
export async function streamReply(
  service: StreamService,
  request: Request,
  trackId: string,
  options: StreamOptions,
): Promise<Reply> {
  const audio = await service.plan(trackId, options);
  return audio.kind === 'original'
    ? await originalReply(service, request, audio)
    : transcodeReply(service, request, audio);
}

/** `GET …/download`: the original file, whole or ranged, with its name (RFC 6266). */
export async function downloadReply(
  service: StreamService,
  request: Request,
  trackId: string,
): Promise<Reply> {
  const audio = await service.original(trackId);
  return originalReply(service, request, audio, {
    'Content-Disposition': contentDisposition(audio.fileName),
  });
}

async function originalReply(
  service: StreamService,
  request: Request,
  audio: OriginalAudio,
  extra: Record<string, string> = {},
): Promise<Reply> {
  const lastModified = new Date(Math.floor(audio.mtimeMs / 1000) * 1000).toUTCString();
  const headers: Record<string, string> = {
    'Accept-Ranges': 'bytes',
    ETag: audio.etag,
    'Last-Modified': lastModified,
    'Cache-Control': CACHE,
    ...extra,
  };
  if (notModified(request, audio)) return { status: 304, body: null, headers };

  const range = honoursRange(request, audio.etag, lastModified)
    ? parseByteRange(request.header('Range'), audio.size)
    : null;
  if (range === 'unsatisfiable') {
    throw new AppError(
      'range_not_satisfiable',
      `The range is outside the file (${audio.size} bytes)`,
      {},
      { 'Content-Range': `bytes */${audio.size}`, 'Accept-Ranges': 'bytes' },
    );
  }
  const head = request.method === 'HEAD';
  if (range === null) {
    const stream = head ? Readable.from([]) : await service.read(audio);
    return { status: 200, type: audio.contentType, headers, body: new StreamBody(stream, audio.size) };
  }
  const stream = head ? Readable.from([]) : await service.read(audio, range);
  return {
    status: 206,
    type: audio.contentType,
    headers: { ...headers, 'Content-Range': `bytes ${range.start}-${range.end}/${audio.size}` },
    body: new StreamBody(stream, range.end - range.start + 1),
  };
}

async function transcodeReply(
  service: StreamService,
  request: Request,
  audio: TranscodedAudio,
): Promise<Reply> {
  // The encode's length is not known in advance: no ranges, no Content-Length, no validators.
  const headers = { 'Accept-Ranges': 'none', 'Cache-Control': 'no-store' };
  // A HEAD learns the type without starting an encoder.
  // Slots are shared per account; a request without one (none reaches here today) counts by address.
  const account = request.principal?.userId ?? `address:${request.clientAddress}`;
  const stream = request.method === 'HEAD' ? Readable.from([]) : await service.encode(audio, account);
  return { status: 200, type: audio.contentType, headers, body: new StreamBody(stream) };
}

/** If-None-Match (any listed tag, weak or strong, or `*`), else If-Modified-Since (whole seconds). */
function notModified(request: Request, audio: OriginalAudio): boolean {
  const tags = request.ifNoneMatch;
  if (tags !== null) {
    return tags
      .split(',')
      .map((tag) => tag.trim().replace(/^W\//, ''))
      .some((tag) => tag === '*' || tag === audio.etag);
  }
  const since = Date.parse(request.header('If-Modified-Since') ?? '');
  return Number.isFinite(since) && Math.floor(audio.mtimeMs / 1000) * 1000 <= since;
}

/** A Range with If-Range counts only while the client's copy is the current one (strong ETag or date). */
function honoursRange(request: Request, etag: string, lastModified: string): boolean {
  const ifRange = request.header('If-Range');
  if (ifRange === null) return true;
  const value = ifRange.trim();
  return value.startsWith('"') ? value === etag : value === lastModified;
}

/**
 * `attachment` with the file's name (RFC 6266): `filename` in plain ASCII for old clients (other
 * characters become `_`), `filename*` in UTF-8 for the rest.
 */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
