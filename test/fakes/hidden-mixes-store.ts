import type { HiddenMixesStore } from '../../server/domain/ports.js';

/** The mixes each user hid, in memory, kept as HiddenMixesRepo keeps them. */
export class FakeHiddenMixesStore implements HiddenMixesStore {
  readonly byUser = new Map<string, string[]>();

  hidden(userId: string): readonly string[] {
    return this.byUser.get(userId) ?? [];
  }

  setHidden(userId: string, mixId: string, hidden: boolean): Promise<boolean> {
    const now = this.byUser.get(userId) ?? [];
    if (now.includes(mixId) === hidden) return Promise.resolve(false);
    const next = hidden ? [...now, mixId] : now.filter((id) => id !== mixId);
    if (next.length === 0) this.byUser.delete(userId);
    else this.byUser.set(userId, next);
    return Promise.resolve(true);
  }

  removeUser(userId: string): Promise<void> {
    this.byUser.delete(userId);
    return Promise.resolve();
  }
}
