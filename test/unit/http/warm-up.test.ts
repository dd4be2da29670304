import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { warmUp } from '../../../server/http/warm-up.js';

describe('warmUp', () => {
  it("asks the server's own /api/health, then sends a sign-in an empty JSON body, and resolves once both are answered", async () => {
    const asked: string[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        asked.push(`${req.method} ${req.url} ${req.headers['content-type'] ?? '-'} ${body}`);
        res.end('{"status":"ok"}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await warmUp(`http://127.0.0.1:${port}`);
    expect(asked).toEqual(['GET /api/health - ', 'POST /auth/login application/json {}']);
    await new Promise((resolve) => server.close(resolve));
  });

  it('resolves all the same when nothing answers', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    await expect(warmUp(`http://127.0.0.1:${port}`)).resolves.toBeUndefined();
  });
});
