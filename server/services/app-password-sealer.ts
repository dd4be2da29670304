import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Keeps app passwords encrypted at rest (AES-256-GCM). Token sign-in (`t = md5(password + s)`)
 * needs the password in clear, so a hash cannot do; the key lives in a file of its own (mode 0600)
 * beside the data, so a copy of users.json alone reveals no app password, and the account
 * passwords stay scrypt hashes.
 */
export class AppPasswordSealer {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('An app-password key has 256 bits');
  }

  /** base64url of iv | tag | ciphertext; a fresh iv each time. */
  seal(secret: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  /** The secret, or null when the text was not sealed with this key or was altered. */
  open(sealed: string): string | null {
    const bytes = Buffer.from(sealed, 'base64url');
    if (bytes.length <= IV_BYTES + TAG_BYTES) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, IV_BYTES));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([
        decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      return null;
    }
  }
}
