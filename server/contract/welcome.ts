import { z } from 'zod';
import { count } from './common.js';
import { musicFolderSchema } from './library.js';

/** `GET /api/welcome`: what a fresh Melon shows its Admin first. */
export const welcomeSchema = z
  .object({
    dismissed: z.boolean().meta({ description: 'An Admin closed the card' }),
    tracks: count().meta({ description: 'Tracks in the library' }),
    scanning: z.boolean().meta({ description: 'A scan is running: the count is still growing' }),
    musicFolders: z.array(musicFolderSchema),
    steps: z
      .object({
        connectPhone: z.boolean().meta({ description: 'The caller has made an app password' }),
        inviteFamily: z
          .boolean()
          .meta({ description: 'A second account exists, or an invite code was made in the last day' }),
        changePassword: z
          .boolean()
          .meta({ description: 'The caller no longer uses the password Melon generated on first start' }),
      })
      .meta({ description: 'Each first step, true once done' }),
  })
  .meta({ id: 'Welcome' });
export type Welcome = z.output<typeof welcomeSchema>;
