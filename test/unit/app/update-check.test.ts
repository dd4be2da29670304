import { describe, expect, it } from 'vitest';
import { UpdateChecker, updateNotice, updateReducer, type UpdateState } from '../../../app/update-check.js';

const info = (available: boolean) => ({
  UpdateAvailable: available,
  CurrentVersion: '1.2.0',
  LatestVersion: available ? '1.3.0' : '1.2.0',
});

describe('updateReducer', () => {
  it('goes checking → available or up-to-date', () => {
    const checking = updateReducer({ kind: 'idle' }, { type: 'check' });
    expect(checking).toEqual({ kind: 'checking' });
    expect(updateReducer(checking, { type: 'result', info: info(true) })).toEqual({
      kind: 'available',
      current: '1.2.0',
      latest: '1.3.0',
    });
    expect(updateReducer(checking, { type: 'result', info: info(false) })).toEqual({
      kind: 'up-to-date',
      version: '1.2.0',
    });
  });

  it('turns an error into failed, and ignores stale answers', () => {
    expect(updateReducer({ kind: 'checking' }, { type: 'error', message: 'offline' })).toEqual({
      kind: 'failed',
      message: 'offline',
    });
    const idle: UpdateState = { kind: 'idle' };
    expect(updateReducer(idle, { type: 'result', info: info(true) })).toBe(idle);
    expect(updateReducer(idle, { type: 'error', message: 'x' })).toBe(idle);
  });

  it('can check again after any end state', () => {
    for (const state of [
      { kind: 'failed', message: 'x' },
      { kind: 'up-to-date', version: '1' },
      { kind: 'available', current: '1', latest: '2' },
    ] as UpdateState[]) {
      expect(updateReducer(state, { type: 'check' })).toEqual({ kind: 'checking' });
    }
  });
});

describe('updateNotice', () => {
  it('says something clear for each end state and nothing otherwise', () => {
    expect(updateNotice({ kind: 'up-to-date', version: '1.2.0' })?.title).toBe('Melon is up to date');
    expect(updateNotice({ kind: 'available', current: '1.2.0', latest: '1.3.0' })?.title).toBe(
      'Melon 1.3.0 is available',
    );
    expect(updateNotice({ kind: 'failed', message: 'The release source did not answer' })?.body).toBe(
      'The release source did not answer',
    );
    expect(updateNotice({ kind: 'checking' })).toBeNull();
    expect(updateNotice({ kind: 'idle' })).toBeNull();
  });
});

describe('UpdateChecker', () => {
  it('reports each state and does not start a second check while one runs', async () => {
    const seen: string[] = [];
    let resolve: (value: ReturnType<typeof info>) => void = () => undefined;
    let calls = 0;
    const checker = new UpdateChecker(
      () => {
        calls++;
        return new Promise((r) => (resolve = r));
      },
      (state) => seen.push(state.kind),
    );
    const first = checker.run();
    await checker.run();
    resolve(info(true));
    expect((await first).kind).toBe('available');
    expect(calls).toBe(1);
    expect(seen).toEqual(['checking', 'available']);
  });

  it('turns a rejected check into failed', async () => {
    const checker = new UpdateChecker(
      () => Promise.reject(new Error('update_check_failed')),
      () => undefined,
    );
    expect(await checker.run()).toEqual({ kind: 'failed', message: 'update_check_failed' });
  });
});
