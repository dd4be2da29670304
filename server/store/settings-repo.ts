import { JsonDocument, type Versioned } from './json-document.js';
import type { HouseholdSettings, SettingsStore } from '../domain/ports.js';

interface SettingsFile extends Versioned, HouseholdSettings {}

/** What an Admin switches on the settings page and Melon keeps across restarts (settings.json). */
export class SettingsRepo implements SettingsStore {
  private constructor(private readonly doc: JsonDocument<SettingsFile>) {}

  static async open(path: string): Promise<SettingsRepo> {
    return new SettingsRepo(
      await JsonDocument.open<SettingsFile>(path, {
        schemaVersion: 1,
        updateCheck: 'daily',
        welcomeDismissed: false,
      }),
    );
  }

  get(): Readonly<HouseholdSettings> {
    const { updateCheck, welcomeDismissed } = this.doc.data;
    return { updateCheck, welcomeDismissed };
  }

  /** Writes only when something changes. */
  set(patch: Partial<HouseholdSettings>): Promise<Readonly<HouseholdSettings>> {
    return this.doc
      .mutate(
        (data) => {
          const changed = Object.entries(patch).some(
            ([key, value]) => data[key as keyof HouseholdSettings] !== value,
          );
          Object.assign(data, patch);
          return changed;
        },
        (changed) => changed,
      )
      .then(() => this.get());
  }

  flush(): Promise<void> {
    return this.doc.flush();
  }
}
