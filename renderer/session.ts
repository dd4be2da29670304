import type { AccountRole } from '../server/contract/users.js';

/** The signed-in user. Kept in sessionStorage: closing the tab or window signs out. */
export interface Session {
  token: string;
  userId: string;
  username: string;
  role: AccountRole;
  expiresAt: string;
}

const KEY = 'melon.session';

export function loadSession(storage: Storage = sessionStorage): Session | null {
  try {
    const value = JSON.parse(storage.getItem(KEY) ?? 'null') as Partial<Session> | null;
    if (!value || typeof value.token !== 'string' || typeof value.role !== 'string') return null;
    if (value.expiresAt && Date.parse(value.expiresAt) <= Date.now()) return null;
    return value as Session;
  } catch {
    return null;
  }
}

export function saveSession(session: Session | null, storage: Storage = sessionStorage): void {
  if (session) storage.setItem(KEY, JSON.stringify(session));
  else storage.removeItem(KEY);
}
