import { z } from 'zod';
import type { UpdateService } from '../../services/updates/update-service.js';
import { updateStatusSchema } from '../openapi-schemas.js';
import { endpoint, rawEndpoint } from '../types.js';

const updateCheck = z
  .object({
    UpdateAvailable: z.boolean(),
    CurrentVersion: z.string(),
    LatestVersion: z.string(),
    ReleaseNotes: z.string().optional().meta({ description: 'Only when an update is available' }),
  })
  .meta({ id: 'UpdateCheck' });

const installResult = z.union([
  z.object({ status: z.literal('up_to_date') }),
  z.object({ status: z.literal('installing'), version: z.string() }),
]);

export function updateHandlers(updates: UpdateService) {
  return {
    checkForUpdates: endpoint({
      summary: 'Ask the release source for a newer version',
      response: updateCheck,
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
      responses: { 200: { description: 'Up to date, or installing', json: installResult } },
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
