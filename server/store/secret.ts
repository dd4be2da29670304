import { randomBytes } from 'node:crypto';
import { chmod, readFile, stat } from 'node:fs/promises';
import { writeFileAtomic } from '../fs/atomic-file.js';
import { errnoCode } from '../fs/errno.js';

/**
 * A 256-bit secret (the JWT signing secret, the app-password key): made on first start, kept
 * (mode 0600) so tokens and sealed app passwords survive restarts.
 */
export async function loadOrCreateSecret(path: string): Promise<Buffer> {
  try {
    const text = (await readFile(path, 'utf8')).trim();
    const secret = Buffer.from(text, 'hex');
    if (secret.length !== 32) throw new Error(`${path} does not hold a 256-bit hex secret`);
    if (process.platform !== 'win32' && ((await stat(path)).mode & 0o077) !== 0) await chmod(path, 0o600);
    return secret;
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw error;
  }
  const secret = randomBytes(32);
  await writeFileAtomic(path, secret.toString('hex') + '\n', 0o600);
  return secret;
}
