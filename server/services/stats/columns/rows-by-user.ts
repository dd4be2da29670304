/** How a batch of rows (the log's, or a saved block's) is numbered, grouped by user and handed to each listener. */
import type { Listener, RowBatch } from '../listener.js';

/** Columns for a batch of `count` rows as the index numbers them, and their order by user. */
export function numberedRows(count: number) {
  return {
    userOf: new Int32Array(count),
    snap: new Uint32Array(count),
    device: new Uint32Array(count),
    flags: new Uint8Array(count),
    order: new Int32Array(count),
  };
}

/**
 * The first `count` rows of a batch grouped by user, each user's in batch order, into `order`: user
 * u's rows are `order[starts[u], starts[u + 1])` (a counting sort). Returns `starts`.
 */
export function byUser(userOf: Int32Array, count: number, users: number, order: Int32Array): Int32Array {
  const starts = new Int32Array(users + 1);
  for (let i = 0; i < count; i += 1) starts[userOf[i]! + 1]! += 1;
  for (let u = 0; u < users; u += 1) starts[u + 1]! += starts[u]!;
  const next = starts.slice(0, users);
  for (let i = 0; i < count; i += 1) order[next[userOf[i]!]!++] = i;
  return starts;
}

/**
 * Hands each listener its rows of a batch at once (Listener.addRows), each user's in batch order:
 * `userOf` the batch rows' users, `order` scratch room for `count` rows.
 */
export function toListeners(
  batch: RowBatch,
  userOf: Int32Array,
  count: number,
  users: number,
  order: Int32Array,
  listener: (userIdx: number) => Listener,
): void {
  const starts = byUser(userOf, count, users, order);
  for (let userIdx = 0; userIdx < users; userIdx += 1) {
    if (starts[userIdx] === starts[userIdx + 1]) continue;
    listener(userIdx).addRows(batch, order, starts[userIdx]!, starts[userIdx + 1]!);
  }
}
