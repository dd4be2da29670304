import { z } from 'zod';
import {
  installAnswerSchema,
  updateCheckSchema,
  updateScheduleSchema,
  updateStatusSchema,
} from '../../../contract/updates.js';
import type { UpdateService } from '../../../services/updates/update-service.js';
import { endpoint, rawEndpoint } from '../../endpoint.js';

export function updateHandlers(updates: UpdateService) {
  return {
    checkForUpdates: endpoint({
      summary: 'Is a newer version published?',
      description:
        'The server asks the release source at most once a day (failures are kept for an hour) and only for an Admin; others get what is known. `refresh=true` (Admin) asks again once the last request is 10 minutes old.',
      params: { refresh: z.enum(['true', 'false']).optional() },
      response: updateCheckSchema,
      errors: { 400: ['update_check_failed'] },
      handle: async ({ params, request }) => {
        const admin = request.principal?.role === 'Admin';
        const answer = await updates.check({ mayAsk: admin, refresh: admin && params.refresh === 'true' });
        const info = updates.checkInfo();
        return {
          ...answer,
          Source: info.source,
          CheckedAt: info.checkedAt === null ? null : new Date(info.checkedAt).toISOString(),
          Schedule: info.schedule,
          ScheduleLocked: info.locked,
          LastCheckFailed: info.failed,
        };
      },
    }),
    setSchedule: endpoint({
      summary: 'Turn the daily update check on or off',
      description:
        'Kept in the data folder (settings.json). `off`: the server asks the release source only when an Admin ' +
        'presses "check now" or installs. MELON_UPDATE_CHECK=off where Melon runs wins: turning the check on ' +
        'is then refused.',
      params: { schedule: z.enum(['daily', 'off'], { error: 'must be daily or off' }) },
      response: updateScheduleSchema,
      errors: { 409: ['update_check_locked'] },
      handle: async ({ params }) => {
        await updates.setSchedule(params.schedule);
        const info = updates.checkInfo();
        return { Schedule: info.schedule, ScheduleLocked: info.locked };
      },
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
