import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Koa from 'koa';
import { koaBody } from 'koa-body';

/**
 * How request bodies are read, for every API that takes parameters in a body (the native API's
 * POSTs and uploads, Subsonic's formPost). The ListenBrainz adapter reads its own JSON documents,
 * since ListenBrainz sets their limit and how a larger one is refused.
 */

/** The most a JSON or form body may hold. */
export const BODY_LIMIT_BYTES = 1024 * 1024;
/** The most an upload may hold unless its route says otherwise. */
export const UPLOAD_LIMIT_BYTES = 20 * 1024 * 1024;

/** Parameters in a form body (application/x-www-form-urlencoded), and in a JSON one when `json`. */
export function formBody({ json }: { json: boolean }): Koa.Middleware {
  return koaBody({
    json,
    urlencoded: true,
    text: false,
    multipart: false,
    jsonLimit: BODY_LIMIT_BYTES,
    formLimit: BODY_LIMIT_BYTES,
    jsonStrict: true,
  });
}

/**
 * Multipart bodies are written into a folder of the request's own, removed when the request ends
 * however it ends: a body refused half-way (413 for a second file, a client gone) leaves files the
 * handler never hears of, and formidable removes only the file it was writing. `limit` is the
 * route's upload limit (default 20 MiB; history imports: 1 GiB, see native/routes.ts).
 */
export function multipartBody(limit: number): Koa.Middleware {
  return async (ctx, next) => {
    const uploadDir = await mkdtemp(join(tmpdir(), 'melon-upload-'));
    try {
      await koaBody({
        json: true,
        urlencoded: true,
        text: false,
        multipart: true,
        jsonLimit: BODY_LIMIT_BYTES,
        formLimit: BODY_LIMIT_BYTES,
        formidable: {
          maxFileSize: limit,
          maxTotalFileSize: limit,
          maxFiles: 1,
          uploadDir,
          keepExtensions: false,
          // An empty file reaches its handler, which can say what is wrong with it.
          allowEmptyFiles: true,
          minFileSize: 0,
          // A part with a file name is the file even without a Content-Type of its own (Python's
          // requests sends none); formidable would otherwise read it as a text field.
          onPart: (part, handlePart) => {
            if (!part.mimetype && part.originalFilename) part.mimetype = 'application/octet-stream';
            handlePart(part);
          },
        },
      })(ctx, next);
    } finally {
      await rm(uploadDir, { recursive: true, force: true });
    }
  };
}
