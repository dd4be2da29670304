import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../server/logger.js';
import { serveRoutes } from '../support/route-app.js';
import { problem, useTestServer } from '../support/server.js';

const t = useTestServer();

describe('problem documents', () => {
  it('answers unknown paths with a JSON 404', async () => {
    const response = await t.call('/api/nothing-here');
    expect(response.status).toBe(404);
    expect(await problem(response)).toMatchObject({ code: 'not_found', title: 'Not Found' });
  });

  it('answers a wrong method with 405 and Allow', async () => {
    const response = await t.call('/auth/invite', { method: 'POST' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toContain('GET');
    expect((await problem(response)).code).toBe('method_not_allowed');
  });

  it('answers truncated JSON and non-object JSON with 400 invalid_body', async () => {
    for (const body of ['{"username":', '[1,2]', '"text"']) {
      const response = await t.call('/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(response.status, body).toBe(400);
      expect((await problem(response)).code, body).toBe('invalid_body');
    }
  });

  it('refuses bodies over 1 MiB with 413', async () => {
    const response = await t.call('/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'a', password: 'x'.repeat(1024 * 1024 + 10) }),
    });
    expect(response.status).toBe(413);
    expect((await problem(response)).code).toBe('payload_too_large');
  });

  it('takes the body over the query and the first of repeated parameters', async () => {
    const response = await t.call('/auth/login?username=nobody&password=wrong-wrong', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `username=admin&password=${encodeURIComponent('correct horse battery staple')}`,
    });
    expect(response.status).toBe(200);
    const repeated = await t.call(
      `/auth/login?username=admin&username=nobody&password=${encodeURIComponent('correct horse battery staple')}&password=x`,
    );
    expect(repeated.status).toBe(200);
  });

  it('sends a request id with every response', async () => {
    const response = await t.call('/api/health');
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await response.json()).toEqual({ status: 'ok', version: t.server.config.version });
  });
});

describe('unexpected faults', () => {
  let served: Awaited<ReturnType<typeof serveRoutes>>;
  let url: string;
  const logger = createMemoryLogger();

  beforeAll(async () => {
    served = await serveRoutes(
      [
        {
          method: 'GET',
          group: 'server',
          path: '/boom',
          access: 'public',
          handler: () => {
            throw new Error('database at /var/secret/path exploded');
          },
        },
      ],
      logger,
    );
    url = served.url;
  });
  afterAll(() => served.close());

  it('become a 500 problem with a request id that the log also has, and no internals', async () => {
    const response = await fetch(`${url}/boom`);
    expect(response.status).toBe(500);
    const body = await problem(response);
    expect(body.code).toBe('internal_error');
    expect(body.requestId).toBe(response.headers.get('x-request-id'));
    expect(JSON.stringify(body)).not.toContain('/var/secret');
    expect(JSON.stringify(body)).not.toContain('exploded');
    const logged = logger.lines.find(
      (line) => line.includes('ERROR') && line.includes(String(body.requestId)),
    );
    expect(logged).toContain('exploded');
  });
});
