import { randomBytes } from 'node:crypto';

/** Ids are opaque strings the server makes: 1–64 characters of `[A-Za-z0-9_-]` (docs/API.md, Conventions). */
const ID_SHAPE = /^[A-Za-z0-9_-]{1,64}$/;

export function isValidId(value: unknown): value is string {
  return typeof value === 'string' && ID_SHAPE.test(value);
}

/** A new random id: 16 bytes, base64url (22 characters). */
export function newId(): string {
  return randomBytes(16).toString('base64url');
}

/** Melon's mixes are listed beside the household's playlists under ids with this prefix. */
export const MIX_ID_PREFIX = 'mix-';

/** A new playlist or collection id, never one that reads as a mix's (which Subsonic would refuse). */
export function newCollectionId(make: () => string = newId): string {
  let id = make();
  while (id.startsWith(MIX_ID_PREFIX)) id = make();
  return id;
}
