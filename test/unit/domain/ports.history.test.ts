import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { ApiKeyRecord } from '../../../server/domain/api-key.js';
import { queuedJob, type ImportJob } from '../../../server/domain/import-job.js';
import type { Listen } from '../../../server/domain/listen.js';
import type {
  ApiKeysStore,
  ImportJobsStore,
  UnmatchedListensStore,
  UsersStore,
} from '../../../server/domain/ports.js';
import { ImportJobsRepo } from '../../../server/store/import-jobs.js';
import { UnmatchedListens } from '../../../server/store/unmatched-listens.js';
import { UsersRepo } from '../../../server/store/users-repo.js';
import { makeUserRecord } from '../../factories/accounts.js';
import { FakeImportJobs } from '../../fakes/import-jobs.js';
import { FakeUnmatchedListens } from '../../fakes/unmatched-listens.js';
import { FakeUsersStore } from '../../fakes/users-store.js';
import { tempDirPerTest } from '../../support/temp-dir.js';

/**
 * The contracts of the ports behind app passwords and the listening history's imports, run against each
 * repository and its fake alike (as ports.test.ts does for the others).
 */
const temp = tempDirPerTest('melon-ports-history-');

type Open<T> = () => Promise<T>;

const key = (userId: string, id: string, extra: Partial<ApiKeyRecord> = {}): ApiKeyRecord => ({
  id,
  userId,
  name: `phone ${id}`,
  hash: `hash-${id}`,
  createdAt: 1_000,
  lastUsedAt: null,
  ...extra,
});

describe.each<[string, Open<UsersStore & ApiKeysStore>]>([
  ['UsersRepo', () => UsersRepo.open(temp.path('users.json'))],
  ['FakeUsersStore', () => Promise.resolve(new FakeUsersStore())],
])('%s as ApiKeysStore', (_, open) => {
  it('adds keys to an existing user up to the limit, and finds them by hash and by user', async () => {
    const users = await open();
    const [alice, bob] = [makeUserRecord(), makeUserRecord()];
    await users.add(alice);
    await users.add(bob);
    expect(await users.addApiKey(key('nobody', 'k0'), 2)).toBe('no_user');
    expect(await users.addApiKey(key(alice.id, 'k1'), 2)).toBe('added');
    expect(await users.addApiKey(key(alice.id, 'k2'), 2)).toBe('added');
    expect(await users.addApiKey(key(alice.id, 'k3'), 2)).toBe('too_many');
    expect(await users.addApiKey(key(bob.id, 'k4'), 2)).toBe('added');
    expect(users.apiKeysOf(alice.id).map((record) => record.id)).toEqual(['k1', 'k2']);
    expect(users.findApiKeyByHash('hash-k4')?.userId).toBe(bob.id);
    expect(users.findApiKeyByHash('hash-k3')).toBeUndefined();
  });

  it("removes only the user's own key, records a use, and drops a removed user's keys", async () => {
    const users = await open();
    const [alice, bob] = [makeUserRecord(), makeUserRecord()];
    await users.add(alice);
    await users.add(bob);
    await users.addApiKey(key(alice.id, 'k1'), 5);
    await users.addApiKey(key(bob.id, 'k2'), 5);
    expect(await users.removeApiKey(bob.id, 'k1')).toBe(false);
    expect(await users.touchApiKey('k1', 5_000, 'DSub')).toBe(true);
    expect(await users.touchApiKey('k1', 6_000)).toBe(true);
    expect(users.findApiKeyByHash('hash-k1')).toMatchObject({ lastUsedAt: 6_000, lastUsedBy: 'DSub' });
    expect(await users.removeApiKey(alice.id, 'k1')).toBe(true);
    expect(await users.touchApiKey('k1', 7_000)).toBe(false);
    expect(await users.remove(bob.id)).toBe('removed');
    expect(users.findApiKeyByHash('hash-k2')).toBeUndefined();
  });
});

const listen = (title: string): Listen => ({
  userId: 'u1',
  at: 1_700_000_000_000,
  artist: 'Artist',
  title,
  album: null,
  recordingMbid: null,
  device: null,
  type: 'play',
  source: 'listenbrainz-api',
});

async function all(store: UnmatchedListensStore): Promise<string[]> {
  const titles: string[] = [];
  for await (const item of store.read()) titles.push(item.title);
  return titles;
}

describe.each<[string, Open<UnmatchedListensStore>]>([
  [
    'UnmatchedListens',
    async () => {
      const store = await UnmatchedListens.open(temp.path('history', 'unmatched.jsonl'));
      temp.closeAfter(() => store.close());
      return store;
    },
  ],
  ['FakeUnmatchedListens', () => Promise.resolve(new FakeUnmatchedListens())],
])('%s as UnmatchedListensStore', (_, open) => {
  it('reads back what was appended, in order', async () => {
    const store = await open();
    expect(await all(store)).toEqual([]);
    await store.append([listen('a'), listen('b')]);
    await store.append([]);
    await store.append([listen('c')]);
    expect(await all(store)).toEqual(['a', 'b', 'c']);
  });

  it('offers every listen in batches and keeps, in order, those not taken', async () => {
    const store = await open();
    expect(await store.sweep(() => Promise.resolve([]))).toEqual({ taken: 0, kept: 0 });
    await store.append(['a', 'b', 'c', 'd', 'e'].map(listen));
    const batches: string[][] = [];
    const outcome = await store.sweep((batch) => {
      batches.push(batch.map((item) => item.title));
      return Promise.resolve(batch.map((item) => item.title === 'b' || item.title === 'e'));
    }, 2);
    expect(batches).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    expect(outcome).toEqual({ taken: 2, kept: 3 });
    expect(await all(store)).toEqual(['a', 'c', 'd']);
    await store.append([listen('f')]);
    expect(await all(store)).toEqual(['a', 'c', 'd', 'f']);
  });
});

const job = (id: string): ImportJob =>
  queuedJob({ id, userId: 'u1', startedBy: 'u1', source: 'lastfm', createdAt: 1_000 });

describe.each<[string, Open<ImportJobsStore>]>([
  ['ImportJobsRepo', () => ImportJobsRepo.open<ImportJob>(temp.path('imports'))],
  ['FakeImportJobs', () => Promise.resolve(new FakeImportJobs())],
])('%s as ImportJobsStore', (_, open) => {
  it('lists each saved job once, as it was last saved', async () => {
    const jobs = await open();
    expect(await jobs.list()).toEqual([]);
    const first = job('j1');
    await jobs.save(first);
    await jobs.save(job('j2'));
    first.status = 'running';
    expect((await jobs.list()).find((saved) => saved.id === 'j1')?.status).toBe('queued');
    await jobs.save(first);
    const listed = await jobs.list();
    expect(listed.map((saved) => saved.id).sort()).toEqual(['j1', 'j2']);
    expect(listed.find((saved) => saved.id === 'j1')?.status).toBe('running');
  });

  it('keeps an upload readable at its path until it is removed', async () => {
    const jobs = await open();
    const upload = temp.path('request-upload.tmp');
    await writeFile(upload, 'scrobbles');
    await jobs.keepUpload('j1', upload);
    expect(await readFile(jobs.uploadPath('j1'), 'utf8')).toBe('scrobbles');
    await jobs.removeUpload('j1');
    await expect(readFile(jobs.uploadPath('j1'), 'utf8')).rejects.toThrow(/ENOENT/);
    await jobs.removeUpload('j1');
  });
});
