import { describe, expect, it } from 'vitest';
import * as outbox from '../../../server/domain/forwarding.js';
import type { ForwardingError, KeptForwarding } from '../../../server/domain/forwarding.js';
import { outgoingListen } from '../../factories/plays.js';

const on = (): KeptForwarding => outbox.configured(undefined, 'http://127.0.0.1:9', 'sealed');
const error = (code: ForwardingError['code']): ForwardingError => ({ code, message: code, at: 5 });
const titles = (record: KeptForwarding) => record.queue.map((listen) => listen.title);

describe('a member sets forwarding', () => {
  it('starts at epoch 1 with an empty outbox, and every new setting is a new epoch', () => {
    const first = on();
    expect(first).toMatchObject({
      epoch: 1,
      queue: [],
      lastSentAt: null,
      lastError: null,
      tokenRefused: false,
    });
    expect(outbox.configured(first, first.url, 'other').epoch).toBe(2);
  });

  it('keeps the outbox and the last send across a new token, and clears the refusal and the error', () => {
    const record = { ...on(), lastSentAt: 7, tokenRefused: true, lastError: error('token_refused') };
    record.queue.push(outgoingListen('a'));
    expect(outbox.configured(record, record.url, 'new token')).toMatchObject({
      lastSentAt: 7,
      tokenRefused: false,
      lastError: null,
      queue: [outgoingListen('a')],
    });
  });

  it('empties the outbox when turned off, and then has nothing pending', () => {
    const record = on();
    outbox.enqueue(record, [outgoingListen('a')], 10, 0);
    expect(outbox.hasPending(record)).toBe(true);
    const off = outbox.configured(record, record.url, null);
    expect(off.queue).toEqual([]);
    expect(outbox.hasPending(off)).toBe(false);
  });
});

describe('the outbox', () => {
  it('changes nothing while forwarding is off, for no one, or for no listens', () => {
    const off = outbox.configured(undefined, 'http://127.0.0.1:9', null);
    expect(outbox.enqueue(off, [outgoingListen('a')], 10, 0)).toBeNull();
    expect(off.queue).toEqual([]);
    expect(outbox.enqueue(undefined, [outgoingListen('a')], 10, 0)).toBeNull();
    expect(outbox.enqueue(on(), [], 10, 0)).toBeNull();
  });

  it('keeps the newest when full and says how many of the oldest were dropped', () => {
    const record = on();
    expect(outbox.enqueue(record, [outgoingListen('a'), outgoingListen('b')], 3, 1)).toBe(0);
    expect(
      outbox.enqueue(record, [outgoingListen('c'), outgoingListen('d'), outgoingListen('e')], 3, 2),
    ).toBe(2);
    expect(titles(record)).toEqual(['c', 'd', 'e']);
    expect(record.lastError).toMatchObject({ code: 'outbox_full', at: 2 });
    expect(record.lastError!.message).toContain('2 oldest');
  });

  it('is pending only with a token and something waiting', () => {
    const record = on();
    expect(outbox.hasPending(record)).toBe(false);
    outbox.enqueue(record, [outgoingListen('a')], 10, 0);
    expect(outbox.hasPending(record)).toBe(true);
    expect(outbox.hasPending({ ...record, sealedToken: null })).toBe(false);
  });
});

describe('how a send went', () => {
  it('a send takes its listens off the front, stamps the time and ends a transient error', () => {
    for (const code of ['unreachable', 'server_error', 'rate_limited'] as const) {
      const record = { ...on(), lastError: error(code) };
      outbox.enqueue(record, [outgoingListen('a'), outgoingListen('b')], 10, 0);
      outbox.markSent(record, 1, 9);
      expect(record, code).toMatchObject({ lastSentAt: 9, lastError: null });
      expect(titles(record)).toEqual(['b']);
    }
  });

  it('a send leaves a refusal or a drop to be read', () => {
    for (const code of ['token_refused', 'listen_refused', 'outbox_full'] as const) {
      const record = { ...on(), lastError: error(code) };
      outbox.markSent(record, 0, 9);
      expect(record.lastError, code).toEqual(error(code));
    }
  });

  it('listens refused for good leave the outbox with their error', () => {
    const record = on();
    outbox.enqueue(record, [outgoingListen('a'), outgoingListen('b')], 10, 0);
    outbox.markDropped(record, 1, error('listen_refused'));
    expect(titles(record)).toEqual(['b']);
    expect(record.lastError).toEqual(error('listen_refused'));
  });

  it('a failed send keeps the outbox, and a refused token stops sending until a new one', () => {
    const record = on();
    outbox.enqueue(record, [outgoingListen('a')], 10, 0);
    outbox.markFailed(record, error('unreachable'));
    expect(record).toMatchObject({ tokenRefused: false, lastError: error('unreachable') });
    outbox.markFailed(record, error('token_refused'));
    expect(record).toMatchObject({ tokenRefused: true, queue: [outgoingListen('a')] });
  });
});
