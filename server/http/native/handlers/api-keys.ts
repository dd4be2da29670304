import { z } from 'zod';
import { deletedSchema } from '../../../contract/common.js';
import { apiKeySchema, newApiKeySchema } from '../../../contract/users.js';
import type { ApiKeyService } from '../../../services/api-key-service.js';
import { id, text } from '../../params.js';
import { callerOf, endpoint } from '../../endpoint.js';

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
      response: deletedSchema,
      errors: { 404: ['api_key_not_found'] },
      handle: async ({ params, request }) => {
        await apiKeys.delete(callerOf(request), params.id);
        return { deleted: true as const, id: params.id };
      },
    }),
  };
}
