import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { fakeScanner, makeLibrary } from '../factories/library.js';
import { makeUser, type TestUser } from '../factories/users.js';
import { send, sendBytes, snapshot } from '../support/attacker.js';
import { problem, expectProblem, useTestServer } from '../support/server.js';

/**
 * Oversized requests (413, 431) and HTTP request smuggling: what the server refuses before any
 * handler runs, and proof that a refused request changed nothing.
 */
const MIB = 1024 * 1024;
let user: TestUser;
const PNG = await readFile(new URL('../../server/assets/default-art.png', import.meta.url));

const t = useTestServer({
  scanner: fakeScanner(
    makeLibrary({ artists: [{ id: 'ar1' }], albums: [{ id: 'al1' }], tracks: [{ id: 't1' }] }),
  ),
});

beforeAll(async () => {
  user = await makeUser(t);
});

const expectTooLarge = (response: Response, label: string) =>
  expectProblem(response, '413 payload_too_large', label);

describe('oversized bodies', () => {
  it('are 413 over 1 MiB as JSON, form or chunked, on public and signed-in routes, and write nothing', async () => {
    const before = await snapshot(t.dataDir);
    const padding = 'x'.repeat(MIB + 1);
    await expectTooLarge(
      await t.call('/api/stats/log-play', {
        method: 'POST',
        token: user.token,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: 't1', device: padding }),
      }),
      'json',
    );
    await expectTooLarge(
      await t.call('/api/users/create', {
        method: 'POST',
        token: t.adminToken,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `username=big&password=long-enough-pw&pad=${padding}`,
      }),
      'form',
    );
    // No Content-Length: the limit counts the bytes as they stream in.
    const chunked = await new Promise<number>((resolve, reject) => {
      const { hostname, port } = new URL(t.url);
      const req = request(
        {
          host: hostname,
          port,
          path: '/auth/login',
          method: 'POST',
          headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.write('{"username":"admin","password":"');
      for (let i = 0; i < 20; i++) req.write('y'.repeat(64 * 1024));
      req.end('"}');
    });
    expect(chunked).toBe(413);
    expect(await snapshot(t.dataDir)).toEqual(before);
  });

  it('are read up to the limit: a body just under 1 MiB is parsed and judged on its content', async () => {
    const response = await t.call('/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'u'.repeat(MIB - 100), password: 'whatever' }),
    });
    expect(response.status).toBe(400);
    expect(await problem(response)).toMatchObject({ code: 'invalid_parameter', parameter: 'username' });
  });

  it('are refused for uploads over 20 MiB and for more than one file', async () => {
    const before = await snapshot(t.dataDir);
    const big = new FormData();
    big.set('id', 'ar1');
    big.set('file', new Blob([PNG, Buffer.alloc(20 * MIB)], { type: 'image/png' }), 'big.png');
    await expectTooLarge(
      await t.call('/api/art/upload/artist-pfp', { method: 'POST', body: big, token: t.adminToken }),
      'upload',
    );
    const two = new FormData();
    two.set('id', 'ar1');
    two.append('file', new Blob([PNG], { type: 'image/png' }), 'a.png');
    two.append('file', new Blob([PNG], { type: 'image/png' }), 'b.png');
    await expectTooLarge(
      await t.call('/api/art/upload/artist-pfp', { method: 'POST', body: two, token: t.adminToken }),
      'two files',
    );
    expect(await snapshot(t.dataDir)).toEqual(before);
  });

  it('are not even read from a caller without the right role: 401 first', async () => {
    const body = new FormData();
    body.set('file', new Blob([Buffer.alloc(25 * MIB)], { type: 'image/png' }), 'big.png');
    for (const token of [undefined, user.token]) {
      const response = await t.call('/api/art/upload/default-art', { method: 'POST', body, token });
      expect(response.status).toBe(401);
      expect((await problem(response)).code).toBe(token ? 'forbidden_role' : 'missing_token');
    }
  });

  it('headers or a URL over 16 KiB are refused with a 431 problem by the HTTP parser', async () => {
    const header = await send(t.url, { path: '/api/health', headers: { 'X-Padding': 'h'.repeat(20_000) } });
    expect(header.status).toBe(431);
    expect(header.headers['content-type']).toBe('application/problem+json');
    expect(header.json()).toMatchObject({ status: 431, code: 'headers_too_large' });
    const url = await send(t.url, { path: `/api/health?pad=${'q'.repeat(20_000)}` });
    expect(url.status).toBe(431);
    expect(url.json()).toMatchObject({ status: 431, code: 'headers_too_large' });
  });

  it('a request that is not HTTP gets a 400 problem, not a bare status line', async () => {
    const answer = await sendBytes(t.url, 'HELLO THERE\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(answer).toContain('Content-Type: application/problem+json');
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
    expect(body).toMatchObject({ status: 400, code: 'malformed_request' });
  });
});

describe('request smuggling at the HTTP layer', () => {
  const smuggled = (n: number) => `GET /api/health?smuggled=${n} HTTP/1.1\r\nHost: localhost\r\n\r\n`;

  it('refuses ambiguous message lengths with 400 and closes the connection, so nothing rides along', async () => {
    const attacks = [
      // Content-Length and Transfer-Encoding together (CL.TE / TE.CL).
      `POST /auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n${smuggled(1)}`,
      // Two different Content-Lengths.
      `POST /auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Length: 4\r\nContent-Length: 60\r\n\r\nabcd${smuggled(2)}`,
      // A Transfer-Encoding the server does not know.
      `POST /auth/login HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: xchunked\r\n\r\n0\r\n\r\n${smuggled(3)}`,
      // An obfuscated one.
      `POST /auth/login HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding : chunked\r\n\r\n0\r\n\r\n${smuggled(4)}`,
      // A bare LF inside a header line.
      `POST /auth/login HTTP/1.1\r\nHost: localhost\r\nX-A: 1\nContent-Length: 40\r\n\r\n${smuggled(5)}`,
    ];
    for (const [i, attack] of attacks.entries()) {
      const answer = await sendBytes(t.url, attack);
      expect(answer, `attack ${i + 1}`).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer.match(/HTTP\/1\.1 /g), `attack ${i + 1}`).toHaveLength(1);
    }
    expect(t.logs.filter((line) => line.includes('smuggled'))).toEqual([]);
  });

  it('answers both requests of an honest pipeline, so the refusals above are not a broken parser', async () => {
    const answer = await sendBytes(
      t.url,
      `GET /api/health?pipelined=1 HTTP/1.1\r\nHost: localhost\r\n\r\nGET /api/health?pipelined=2 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`,
    );
    expect(answer.match(/HTTP\/1\.1 200 /g)).toHaveLength(2);
  });
});
