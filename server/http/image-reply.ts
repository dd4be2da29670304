import { createReadStream } from 'node:fs';
import type { Image } from '../services/artwork-service.js';
import { StreamBody, type Reply, type Request } from './endpoint.js';

/**
 * Image bytes with their sniffed type and an ETag; 304 when the client's copy is current. A large
 * image is streamed from the cache's file, so a slow reader holds a stream buffer, not the image.
 * The native artwork routes, the Listen view's covers and Subsonic's getCoverArt answer with it.
 */
export function imageReply(request: Request, image: Image): Reply {
  const headers = { ETag: image.etag, 'Cache-Control': 'private, no-cache' };
  if (request.ifNoneMatch === image.etag) return { status: 304, body: null, headers };
  if (image.bytes) return { status: 200, body: image.bytes, type: image.mime, headers };
  return {
    status: 200,
    body: new StreamBody(createReadStream(image.file!), image.size),
    type: image.mime,
    headers,
  };
}
