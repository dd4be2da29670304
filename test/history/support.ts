import { expect } from 'vitest';
import type { TestUser } from '../factories/users.js';
import type { TestServer, TestServerOptions } from '../support/server.js';
import type { ImportProgress } from '../../server/contract/history.js';
import { ManualClock } from '../../server/clock.js';
import { fakeScanner } from '../factories/library.js';
import { historyLibrary } from './library.js';

/** Noon on a fixed day, after every listen the history tests import, so none is in the future. */
export const HISTORY_NOW = Date.parse('2026-06-15T12:00:00Z');

/** A server over the history library, its clock stopped at HISTORY_NOW. */
export const historyServer = (): TestServerOptions => ({
  scanner: fakeScanner(historyLibrary()),
  clock: new ManualClock(HISTORY_NOW),
});

/** A Melon API key made for the user (POST /api/users/api-keys/create): what a scrobbler is given. */
export async function scrobblerKey(t: TestServer, user: TestUser): Promise<string> {
  const response = await t.call('/api/users/api-keys/create', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Scrobbler' }),
    token: user.token,
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { key: string }).key;
}

/** A request to the ListenBrainz API as a scrobbler makes it. */
export function listenBrainz(
  t: TestServer,
  path: string,
  options: { token?: string | null; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.Authorization = `Token ${options.token}`;
  const hasBody = options.body !== undefined || options.raw !== undefined;
  if (hasBody) headers['Content-Type'] = 'application/json';
  return fetch(`${t.url}/listenbrainz/1/${path}`, {
    method: hasBody ? 'POST' : 'GET',
    headers,
    body: options.raw ?? (hasBody ? JSON.stringify(options.body) : undefined),
  });
}

export type { ImportProgress };

export type ImportFields = { source?: string; userId?: string; keepIncognito?: string };

/** Uploads a file (text, or the bytes of a ZIP) to POST /api/stats/import and answers the response. */
export function upload(
  t: TestServer,
  token: string,
  fields: ImportFields,
  content: string | Uint8Array,
  fileName = 'export.dat',
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) form.set(name, value);
  form.set('file', new Blob([content as BlobPart]), fileName);
  return t.call('/api/stats/import', { method: 'POST', body: form, token });
}

/** Uploads and waits for the import to finish; answers its report. */
export async function importFile(
  t: TestServer,
  token: string,
  fields: ImportFields,
  content: string | Uint8Array,
): Promise<ImportProgress> {
  const response = await upload(t, token, fields, content);
  expect(response.status, await response.clone().text()).toBe(202);
  const { id } = (await response.json()) as { id: string };
  return waitForImport(t, token, id);
}

export async function waitForImport(t: TestServer, token: string, id: string): Promise<ImportProgress> {
  for (let i = 0; i < 500; i += 1) {
    const response = await t.call(`/api/stats/import/${id}`, { token });
    expect(response.status).toBe(200);
    const progress = (await response.json()) as ImportProgress;
    if (progress.done) return progress;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`import ${id} did not finish`);
}

/** The user's plays, newest first, as recent-tracks lists them. */
export async function recentPlays(t: TestServer, user: TestUser) {
  const response = await t.call(`/api/stats/recent-tracks?count=1000&userId=${user.id}`, {
    token: t.adminToken,
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Array<{
    id: string;
    playedAt: string;
    device: string | null;
    track: { id: string };
  }>;
}

export async function playCount(t: TestServer, user: TestUser): Promise<number> {
  const response = await t.call(`/api/stats/listening-time?userId=${user.id}`, { token: t.adminToken });
  return ((await response.json()) as { plays: number }).plays;
}
