import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AppPasswordSealer } from '../../../server/services/app-password-sealer.js';

describe('AppPasswordSealer', () => {
  const sealer = new AppPasswordSealer(randomBytes(32));

  it('opens what it sealed, and never shows the secret in the sealed text', () => {
    const secret = 'melon_' + 'a'.repeat(43);
    const sealed = sealer.seal(secret);
    expect(sealed).not.toContain('aaaa');
    expect(sealer.open(sealed)).toBe(secret);
    // A fresh iv each time: the same secret seals differently.
    expect(sealer.seal(secret)).not.toBe(sealed);
  });

  it('opens nothing sealed with another key, altered, or cut short', () => {
    const sealed = sealer.seal('an app password');
    expect(new AppPasswordSealer(randomBytes(32)).open(sealed)).toBeNull();
    const bytes = Buffer.from(sealed, 'base64url');
    bytes[bytes.length - 1]! ^= 1;
    expect(sealer.open(bytes.toString('base64url'))).toBeNull();
    expect(sealer.open(sealed.slice(0, 20))).toBeNull();
    expect(sealer.open('')).toBeNull();
  });

  it('takes only a 256-bit key', () => {
    expect(() => new AppPasswordSealer(randomBytes(16))).toThrow(/256 bits/);
  });
});
