import { z } from 'zod';
import type { ApiKeyService } from '../../services/api-key-service.js';
import { utc } from '../openapi-schemas.js';
import { id, text } from '../params.js';
import { callerOf, endpoint } from '../types.js';

const apiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    createdAt: utc(),
    lastUsedAt: utc()
      .nullable()
      .meta({ description: 'Updated at most once a minute; null before first use' }),
  })
  .meta({ id: 'ApiKey', description: 'An API key; never the key itself.' });

const newApiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    key: z
      .string()
      .regex(/^melon_[A-Za-z0-9_-]{43}$/)
      .meta({ description: 'Shown only in this answer: `Authorization: Bearer <key>`' }),
    createdAt: utc(),
  })
  .meta({ id: 'NewApiKey' });

const keyName = text(64)
  .refine((name) => !/\p{Cc}/u.test(name), { message: 'must not contain control characters' })
  .meta({ description: 'What the key is for (an app or device), 1–64 characters' });

export function apiKeyHandlers(apiKeys: ApiKeyService) {
  return {
    create: endpoint({
      summary: 'Make an API key for an app (it acts as the caller)',
      params: { name: keyName },
      status: 201,
      response: newApiKeySchema,
      responseDescription: 'The new key; the only time it is shown',
      errors: { 409: ['too_many_api_keys'] },
      handle: ({ params, request }) => apiKeys.create(callerOf(request), params.name),
    }),
    list: endpoint({
      summary: "The caller's API keys",
      response: z.array(apiKeySchema),
      handle: ({ request }) => apiKeys.list(callerOf(request)),
    }),
    delete: endpoint({
      summary: 'Delete one of the caller’s API keys (it stops working at once)',
      params: { id: id() },
      response: z.object({ deleted: z.literal(true), id: z.string() }),
      errors: { 404: ['api_key_not_found'] },
      handle: async ({ params, request }) => {
        await apiKeys.delete(callerOf(request), params.id);
        return { deleted: true as const, id: params.id };
      },
    }),
  };
}
