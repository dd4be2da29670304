import type { HouseholdSettings, SettingsStore } from '../../server/domain/ports.js';

/** The household's switches in memory, with SettingsRepo's defaults. */
export class FakeSettingsStore implements SettingsStore {
  private settings: HouseholdSettings = { updateCheck: 'daily', welcomeDismissed: false };

  get(): Readonly<HouseholdSettings> {
    return { ...this.settings };
  }

  set(patch: Partial<HouseholdSettings>): Promise<Readonly<HouseholdSettings>> {
    this.settings = { ...this.settings, ...patch };
    return Promise.resolve(this.get());
  }
}
