import type { UpdateService } from '../../services/updates/update-service.js';
import { ok, type Reply } from '../types.js';

export function settingsHandlers(updates: UpdateService) {
  return {
    checkForUpdates: async () => ok(await updates.check()),
    updateStatus: () => ok(updates.status()),
    updateMelon: async (): Promise<Reply> => {
      const result = await updates.install();
      if (result.status !== 'installing') return ok(result);
      // The 200 goes out first; then the store is flushed, the installer starts and the server exits.
      return {
        status: 200,
        body: { status: 'installing', version: result.version },
        afterSend: () => result.launch(),
      };
    },
  };
}
