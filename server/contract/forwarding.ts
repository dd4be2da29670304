import { z } from 'zod';
import { count, utc } from './common.js';

/** Why the last send failed, or what the last send dropped (docs/API.md, Forwarding plays). */
export const FORWARDING_ERRORS = [
  'token_refused',
  'listen_refused',
  'unreachable',
  'server_error',
  'rate_limited',
  'outbox_full',
] as const;
export type ForwardingErrorCode = (typeof FORWARDING_ERRORS)[number];

export const forwardingSchema = z
  .object({
    url: z.string().meta({ description: 'The ListenBrainz API root plays go to (no token, ever)' }),
    enabled: z.boolean().meta({ description: 'A token is set: new plays are queued and sent' }),
    queued: count().meta({ description: 'Listens waiting in the outbox' }),
    lastSentAt: utc().nullable().meta({ description: 'When the service last took listens' }),
    lastError: z
      .object({
        code: z.enum(FORWARDING_ERRORS),
        message: z.string(),
        at: utc(),
      })
      .nullable()
      .meta({
        description:
          '`token_refused` stops sending until a token is given again; the others are retried or say what was dropped',
      }),
  })
  .meta({
    id: 'Forwarding',
    description: "Where a member's plays are forwarded (ListenBrainz or a compatible service)",
  });
export type Forwarding = z.output<typeof forwardingSchema>;
