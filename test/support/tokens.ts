import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expectProblem, type TestServer } from './server.js';

/** The key a server signs its tokens with: `secret.key` in its data folder, in hex. */
export async function signingKey(t: Pick<TestServer, 'dataDir'>): Promise<Buffer> {
  return Buffer.from((await readFile(join(t.dataDir, 'secret.key'), 'utf8')).trim(), 'hex');
}

/** Checks that the server no longer takes `token`: GET /auth/check answers 401 invalid_token. */
export async function expectTokenRefused(t: Pick<TestServer, 'call'>, token: string): Promise<void> {
  await expectProblem(await t.call('/auth/check', { token }), '401 invalid_token');
}
