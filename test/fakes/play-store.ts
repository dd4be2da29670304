import type { PlayStore } from '../../server/domain/ports.js';
import type { PlayLogEntry } from '../../server/domain/play.js';

/**
 * The play log in memory. Like PlayLog wired by the store, an entry reaches `onEntry` (the stats
 * index) before its append resolves. `hold()` keeps appends from becoming "durable" until released,
 * as a slow disk would, so a test can have a retry arrive while its original is still being written.
 */
export class FakePlayStore implements PlayStore {
  readonly entries: PlayLogEntry[] = [];
  private held: Array<() => void> | null = null;

  constructor(private readonly onEntry: (entry: PlayLogEntry) => void) {}

  append(entry: PlayLogEntry): Promise<void> {
    return this.appendMany([entry]);
  }

  appendMany(entries: PlayLogEntry[]): Promise<void> {
    const write = () => {
      for (const entry of entries) {
        this.entries.push(entry);
        this.onEntry(entry);
      }
    };
    if (!this.held) {
      write();
      return Promise.resolve();
    }
    const queue = this.held;
    return new Promise<void>((resolve) =>
      queue.push(() => {
        write();
        resolve();
      }),
    );
  }

  /** Holds appends until the returned function is called, which writes them in order. */
  hold(): () => void {
    const queue: Array<() => void> = [];
    this.held = queue;
    return () => {
      if (this.held === queue) this.held = null;
      for (const finish of queue) finish();
    };
  }
}
