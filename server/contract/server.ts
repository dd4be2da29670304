import { z } from 'zod';
import { musicFolderSchema } from './library.js';

export const healthSchema = z.object({
  status: z.enum(['ok', 'starting']).meta({
    description:
      '`starting` while the plays still load: sign-ins are answered, other requests wait or get 503 `starting`',
  }),
  version: z.string(),
});
export type Health = z.output<typeof healthSchema>;

export const serverInfoSchema = z.object({
  version: z.string(),
  addresses: z.array(z.string()),
  musicFolders: z.array(musicFolderSchema),
  transcoding: z.boolean().meta({ description: 'Whether ffmpeg was found at start' }),
});
export type ServerInfo = z.output<typeof serverInfoSchema>;

/** Where household devices reach this server: what a member types into a music app. */
export const serverAddressSchema = z
  .object({
    address: z.string().meta({
      description: 'The "on your network" address (http://<LAN address>:<port>), else the bound one',
    }),
  })
  .meta({ id: 'ServerAddress' });
