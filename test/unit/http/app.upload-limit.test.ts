import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../../server/http/app.js';
import { UPLOAD_LIMIT_BYTES } from '../../../server/http/body.js';
import { createMemoryLogger } from '../../../server/logger.js';
import type { AuthService } from '../../../server/services/auth-service.js';
import { rawEndpoint, type RouteDef } from '../../../server/http/endpoint.js';

/** A route may raise (or lower) its multipart upload limit; the others keep the default. */
const sizes: number[] = [];
const route = (path: string, uploadLimitBytes?: number): RouteDef => ({
  method: 'POST',
  path,
  group: 'server',
  access: 'public',
  body: 'multipart',
  ...(uploadLimitBytes === undefined ? {} : { uploadLimitBytes }),
  ...rawEndpoint({
    summary: 'upload',
    files: { file: 'a file' },
    responses: { 200: { description: 'ok' } },
    handle: ({ request }) => {
      sizes.push(request.files.file!.size);
      return { body: { ok: true } };
    },
  }),
});

let url = '';
const server = createServer();
beforeAll(async () => {
  const app = buildApp([route('/small', 1000), route('/default')], {} as AuthService, createMemoryLogger());
  const handle = app.callback();
  server.on('request', (req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const upload = (path: string, bytes: number) => {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(bytes)]), 'f.bin');
  return fetch(url + path, { method: 'POST', body: form });
};

it('refuses an upload over the route’s own limit with 413, and takes one at it', async () => {
  expect((await upload('/small', 1000)).status).toBe(200);
  const over = await upload('/small', 1001);
  expect(over.status).toBe(413);
  expect(((await over.json()) as { code: string }).code).toBe('payload_too_large');
});

it('keeps the default limit on the other multipart routes', async () => {
  expect((await upload('/default', 5000)).status).toBe(200);
  expect((await upload('/default', UPLOAD_LIMIT_BYTES + 1)).status).toBe(413);
  expect(sizes).toEqual([1000, 5000]);
});
