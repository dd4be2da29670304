import { JsonDocument, type Versioned } from './json-document.js';

interface HiddenMixesFile extends Versioned {
  /** user id → the ids of the mixes they hid, in the order hidden. */
  hidden: Record<string, string[]>;
}

/** The mixes each user hid (mixes.json); a user who hid none has no entry. */
export class HiddenMixesRepo {
  private constructor(private readonly doc: JsonDocument<HiddenMixesFile>) {}

  static async open(path: string): Promise<HiddenMixesRepo> {
    return new HiddenMixesRepo(
      await JsonDocument.open<HiddenMixesFile>(path, { schemaVersion: 1, hidden: {} }),
    );
  }

  hidden(userId: string): readonly string[] {
    return this.doc.data.hidden[userId] ?? [];
  }

  setHidden(userId: string, mixId: string, hidden: boolean): Promise<boolean> {
    return this.doc.mutate(
      (data) => {
        const now = data.hidden[userId] ?? [];
        if (now.includes(mixId) === hidden) return false;
        const next = hidden ? [...now, mixId] : now.filter((id) => id !== mixId);
        if (next.length === 0) delete data.hidden[userId];
        else data.hidden[userId] = next;
        return true;
      },
      (changed) => changed,
    );
  }

  /** Drops what a user hid (when the account is deleted). */
  async removeUser(userId: string): Promise<void> {
    await this.doc.dropEntry((data) => data.hidden, userId);
  }

  flush(): Promise<void> {
    return this.doc.flush();
  }
}
