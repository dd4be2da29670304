import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ForwardingRepo } from '../../../server/store/forwarding-repo.js';
import { outgoingListen } from '../../factories/plays.js';

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'melon-forwarding-'));
  path = join(dir, 'forwarding.json');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const listen = (n: number) => outgoingListen(`Track ${n}`, n);
const titles = (repo: ForwardingRepo) => repo.find('u1')!.queue.map((item) => item.title);

describe('the forwarding outbox', () => {
  it('keeps the newest listens when full, dropping the oldest and saying how many', async () => {
    const repo = await ForwardingRepo.open(path);
    await repo.configure('u1', 'http://127.0.0.1:9', 'sealed');
    for (let n = 1; n <= 3; n += 1) expect(await repo.enqueue('u1', [listen(n)], 3, 1000)).toBe(0);
    expect(await repo.enqueue('u1', [listen(4), listen(5)], 3, 2000)).toBe(2);
    expect(titles(repo)).toEqual(['Track 3', 'Track 4', 'Track 5']);
    expect(repo.find('u1')!.lastError).toMatchObject({ code: 'outbox_full', at: 2000 });
    expect(repo.find('u1')!.lastError!.message).toContain('2 oldest');
  });

  it('is on disk (mode 0600) and read back after a restart', async () => {
    const repo = await ForwardingRepo.open(path);
    await repo.configure('u1', 'http://127.0.0.1:9', 'sealed');
    await repo.enqueue('u1', [listen(1), listen(2)], 10, 0);
    if (process.platform !== 'win32') expect((await stat(path)).mode & 0o777).toBe(0o600);
    const again = await ForwardingRepo.open(path);
    expect(titles(again)).toEqual(['Track 1', 'Track 2']);
    expect(again.pending()).toEqual(['u1']);
  });

  it('queues nothing for a member who has not turned forwarding on, or turned it off', async () => {
    const repo = await ForwardingRepo.open(path);
    expect(await repo.enqueue('u1', [listen(1)], 10, 0)).toBe(0);
    expect(repo.find('u1')).toBeUndefined();
    await repo.configure('u1', 'http://127.0.0.1:9', 'sealed');
    await repo.enqueue('u1', [listen(1)], 10, 0);
    await repo.configure('u1', 'http://127.0.0.1:9', null);
    expect(repo.find('u1')!.queue).toEqual([]);
    await repo.enqueue('u1', [listen(2)], 10, 0);
    expect(repo.find('u1')!.queue).toEqual([]);
    expect(repo.pending()).toEqual([]);
  });

  it('ignores the outcome of a send made before the member set forwarding again', async () => {
    const repo = await ForwardingRepo.open(path);
    await repo.configure('u1', 'http://127.0.0.1:9', 'sealed');
    await repo.enqueue('u1', [listen(1), listen(2)], 10, 0);
    const { epoch } = repo.find('u1')!;
    await repo.configure('u1', 'http://127.0.0.1:9', 'another');
    await repo.sent('u1', epoch, 2, 5000);
    expect(titles(repo)).toEqual(['Track 1', 'Track 2']);
    expect(repo.find('u1')!.lastSentAt).toBeNull();
  });

  it('clears a passing error on success, but keeps a dropped listen to be read', async () => {
    const repo = await ForwardingRepo.open(path);
    await repo.configure('u1', 'http://127.0.0.1:9', 'sealed');
    await repo.enqueue('u1', [listen(1), listen(2), listen(3)], 10, 0);
    const { epoch } = repo.find('u1')!;
    await repo.failed('u1', epoch, { code: 'unreachable', message: 'down', at: 1 });
    await repo.sent('u1', epoch, 1, 2);
    expect(repo.find('u1')!.lastError).toBeNull();
    await repo.dropped('u1', epoch, 1, { code: 'listen_refused', message: 'bad', at: 3 });
    await repo.sent('u1', epoch, 1, 4);
    expect(repo.find('u1')).toMatchObject({
      queue: [],
      lastSentAt: 4,
      lastError: { code: 'listen_refused' },
    });
  });

  it('stops on a refused token until the member gives one again', async () => {
    const repo = await ForwardingRepo.open(path);
    await repo.configure('u1', 'http://127.0.0.1:9', 'sealed');
    await repo.enqueue('u1', [listen(1)], 10, 0);
    await repo.failed('u1', repo.find('u1')!.epoch, { code: 'token_refused', message: 'no', at: 1 });
    expect(repo.find('u1')!.tokenRefused).toBe(true);
    await repo.configure('u1', 'http://127.0.0.1:9', 'new');
    expect(repo.find('u1')).toMatchObject({ tokenRefused: false, lastError: null, queue: [listen(1)] });
  });
});
