import { z } from 'zod';
import { deletedSchema } from '../../../contract/common.js';
import { apiKeySchema, newApiKeySchema } from '../../../contract/users.js';
import type { ApiKeyService } from '../../../services/api-key-service.js';
import { id, text } from '../../params.js';
import { callerOf, endpoint } from '../../endpoint.js';

const keyName = text(64)
  .refine((name) => !/\p{Cc}/u.test(name), { message: 'must not contain control characters' })
  .meta({ description: 'What the app password is for (an app or device), 1–64 characters' });

const owner = id()
  .optional()
  .meta({ description: "Whose app passwords (default: the caller's; another member's: Admin only)" });

export function apiKeyHandlers(apiKeys: ApiKeyService) {
  return {
    create: endpoint({
      summary: 'Make an app password for a music app (it acts as its member, with their role)',
      params: { name: keyName, userId: owner },
      status: 201,
      response: newApiKeySchema,
      responseDescription: 'The new app password; the only time it is shown',
      errors: { 401: ['forbidden_role'], 404: ['user_not_found'], 409: ['too_many_api_keys'] },
      handle: ({ params, request }) =>
        apiKeys.create(callerOf(request), params.name, { userId: params.userId }),
    }),
    list: endpoint({
      summary: "The caller's app passwords (an Admin may name a member)",
      params: { userId: owner },
      response: z.array(apiKeySchema),
      errors: { 401: ['forbidden_role'], 404: ['user_not_found'] },
      handle: ({ params, request }) => apiKeys.list(callerOf(request), { userId: params.userId }),
    }),
    delete: endpoint({
      summary: 'Delete an app password (it stops working at once)',
      params: { id: id(), userId: owner },
      response: deletedSchema,
      errors: { 401: ['forbidden_role'], 404: ['api_key_not_found', 'user_not_found'] },
      handle: async ({ params, request }) => {
        await apiKeys.delete(callerOf(request), params.id, { userId: params.userId });
        return { deleted: true as const, id: params.id };
      },
    }),
  };
}
