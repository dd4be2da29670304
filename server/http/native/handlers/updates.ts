import { installAnswerSchema, updateCheckSchema, updateStatusSchema } from '../../../contract/updates.js';
import type { UpdateService } from '../../../services/updates/update-service.js';
import { endpoint, rawEndpoint } from '../../endpoint.js';

export function updateHandlers(updates: UpdateService) {
  return {
    checkForUpdates: endpoint({
      summary: 'Ask the release source for a newer version',
      response: updateCheckSchema,
      errors: { 400: ['update_check_failed'] },
      handle: () => updates.check(),
    }),
    updateStatus: endpoint({
      summary: 'The progress of an update',
      response: updateStatusSchema,
      handle: () => updates.status(),
    }),
    updateMelon: rawEndpoint({
      summary: 'Download, verify and install the newest version',
      description:
        'Answers once the update is downloaded and verified; then the store is flushed, the installer starts and the server exits.',
      responses: { 200: { description: 'Up to date, or installing', json: installAnswerSchema } },
      errors: {
        400: ['update_check_failed', 'update_failed'],
        404: ['no_release'],
        409: ['update_in_progress'],
      },
      handle: async () => {
        const result = await updates.install();
        if (result.status !== 'installing') return { status: 200, body: result };
        // The 200 goes out first; then the store is flushed, the installer starts and the server exits.
        return {
          status: 200,
          body: { status: 'installing', version: result.version },
          afterSend: () => result.launch(),
        };
      },
    }),
  };
}
