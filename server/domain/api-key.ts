/**
 * App passwords (docs/API.md, App passwords), called API keys in the API: long-lived secrets a music
 * app signs in with instead of the account password. One acts as its user, with the user's current
 * role. Its SHA-256 finds it when it is sent whole; a sealed copy (AES-256-GCM) lets Subsonic token
 * sign-in check `md5(key + salt)`. Keys made before app passwords have no sealed copy.
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
  /** The key encrypted with the data folder's app-password key; absent on keys from before. */
  sealed?: string;
  /** The client name (Subsonic's `c`) of the last use that named one. */
  lastUsedBy?: string | null;
}

/** `melon_` and 32 random bytes in base64url: recognisable in logs and leak scanners, never a JWT. */
export const API_KEY_PREFIX = 'melon_';
const API_KEY_SHAPE = /^melon_[A-Za-z0-9_-]{43}$/;

export function looksLikeApiKey(value: string): boolean {
  return API_KEY_SHAPE.test(value);
}
