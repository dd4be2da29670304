import type { Listen } from '../../server/domain/listen.js';
import type { UnmatchedListensStore } from '../../server/domain/ports.js';

/** The listens that matched no track, in memory, in the order they came, as UnmatchedListens keeps them. */
export class FakeUnmatchedListens implements UnmatchedListensStore {
  listens: Listen[] = [];

  append(listens: readonly Listen[]): Promise<void> {
    this.listens.push(...listens);
    return Promise.resolve();
  }

  async *read(): AsyncGenerator<Listen> {
    // A copy: a sweep may replace the list while a reader is part-way through.
    for (const listen of [...this.listens]) yield await Promise.resolve(listen);
  }

  async sweep(
    take: (batch: Listen[]) => Promise<boolean[]>,
    batchSize = 5000,
  ): Promise<{ taken: number; kept: number }> {
    const all = this.listens;
    const stay: Listen[] = [];
    for (let start = 0; start < all.length; start += batchSize) {
      const batch = all.slice(start, start + batchSize);
      const took = await take(batch);
      stay.push(...batch.filter((_, i) => !took[i]));
    }
    // Listens appended while the batches were offered stay, after the ones that were there.
    this.listens = [...stay, ...this.listens.slice(all.length)];
    return { taken: all.length - stay.length, kept: stay.length };
  }
}
