/**
 * API keys (docs/API.md, API keys): long-lived secrets a music app signs in with instead of a
 * password. A key acts as its user, with the user's current role; only its SHA-256 is stored.
 */
export interface ApiKeyRecord {
  id: string;
  userId: string;
  /** What the user called it (the app or device), 1–64 characters. */
  name: string;
  /** SHA-256 of the whole key, hex. */
  hash: string;
  /** epoch ms */
  createdAt: number;
  /** epoch ms, updated at most once a minute; null before first use */
  lastUsedAt: number | null;
}

/** `melon_` and 32 random bytes in base64url: recognisable in logs and leak scanners, never a JWT. */
export const API_KEY_PREFIX = 'melon_';
const API_KEY_SHAPE = /^melon_[A-Za-z0-9_-]{43}$/;

export function looksLikeApiKey(value: string): boolean {
  return API_KEY_SHAPE.test(value);
}
