import type { Welcome } from '../contract/welcome.js';
import type { InvitesStore, SettingsStore, UsersStore } from '../domain/ports.js';
import { accountOf, type Principal } from '../domain/user.js';
import type { ApiKeyService } from './api-key-service.js';
import type { LibraryService } from './library-service.js';

/**
 * The welcome card of a fresh Melon (Admins only: members cannot act on it): what the library
 * holds, and the first steps, each ticked from what the server knows rather than from clicks, so a
 * step done on another device or through the API is ticked too.
 */
export class WelcomeService {
  constructor(
    private readonly users: Pick<UsersStore, 'count' | 'findById'> & Pick<InvitesStore, 'recentInvites'>,
    private readonly apiKeys: Pick<ApiKeyService, 'list'>,
    private readonly library: Pick<LibraryService, 'musicFolders' | 'trackRecords' | 'scanStatus'>,
    private readonly settings: SettingsStore,
  ) {}

  show(admin: Principal): Welcome {
    const account = this.users.findById(accountOf(admin));
    return {
      dismissed: this.settings.get().welcomeDismissed,
      tracks: this.library.trackRecords().length,
      scanning: this.library.scanStatus().running,
      musicFolders: this.library.musicFolders(),
      steps: {
        connectPhone: this.apiKeys.list(admin).length > 0,
        inviteFamily: this.users.count() > 1 || this.users.recentInvites().length > 0,
        changePassword: account?.passwordGenerated !== true,
      },
    };
  }

  async dismiss(admin: Principal): Promise<Welcome> {
    await this.settings.set({ welcomeDismissed: true });
    return this.show(admin);
  }
}
