import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { scryptKey } from './scrypt-thread.js';
import type { PasswordHash } from '../domain/user.js';

// OWASP's scrypt minimum (N=2^17, r=8, p=1) costs ~128 MiB per hash; 2^15 keeps a login near 50 ms
// on a NAS-class CPU while staying far beyond brute-force reach for an 8+ character password.
const PARAMS = { N: 2 ** 15, r: 8, p: 1, keyLength: 32 } as const;

function derive(password: string, salt: Buffer, params: Omit<PasswordHash, 'algorithm' | 'salt' | 'hash'>) {
  return scryptKey(password.normalize('NFC'), salt, params.keyLength, {
    N: params.N,
    r: params.r,
    p: params.p,
    maxmem: 256 * params.N * params.r,
  });
}

export async function hashPassword(password: string): Promise<PasswordHash> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return { algorithm: 'scrypt', salt: salt.toString('base64'), hash: key.toString('base64'), ...PARAMS };
}

/**
 * Checks running now, by what they check: a Subsonic app sending its password with every request
 * asks many at once after a restart, and they wait for one another (scrypt-thread.ts), so the same
 * check is made once. Keyed by a digest, never the password itself.
 */
const checking = new Map<string, Promise<boolean>>();

export function verifyPassword(password: string, stored: PasswordHash): Promise<boolean> {
  const digest = createHash('sha256').update(password.normalize('NFC')).digest('base64');
  const key = `${stored.salt} ${stored.hash} ${digest}`;
  const running = checking.get(key);
  if (running) return running;
  const check = verifyNow(password, stored).finally(() => checking.delete(key));
  checking.set(key, check);
  return check;
}

async function verifyNow(password: string, stored: PasswordHash): Promise<boolean> {
  const expected = Buffer.from(stored.hash, 'base64');
  const actual = await derive(password, Buffer.from(stored.salt, 'base64'), stored);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Verified against when the username is unknown, so that case takes as long as a wrong password. */
let decoy: Promise<PasswordHash> | undefined;
export function decoyHash(): Promise<PasswordHash> {
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  return decoy;
}

/** A password for the first Admin when none is configured: 20 characters, ~119 bits. */
export function generatePassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  const bytes = randomBytes(40);
  let out = '';
  // Rejection sampling keeps every character equally likely.
  for (const byte of bytes) {
    if (byte < 256 - (256 % alphabet.length)) out += alphabet[byte % alphabet.length];
    if (out.length === 20) return out;
  }
  return out + generatePassword().slice(0, 20 - out.length);
}
