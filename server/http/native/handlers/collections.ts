import { collectionPageSchema, collectionSchema } from '../../../contract/collections.js';
import { trackListSchema } from '../../../contract/library.js';
import type { LibraryService } from '../../../services/library-service.js';
import type { CollectionService } from '../../../services/collection-service.js';
import type { CollectionKind } from '../../../domain/collection.js';
import { idPath, listQuery, stringList, text } from '../../params.js';
import { byIdEndpoint, callerOf, endpoint } from '../../endpoint.js';

export function collectionHandlers(
  collections: CollectionService,
  library: LibraryService,
  kind: CollectionKind,
) {
  const plural = kind === 'playlist' ? 'Playlists' : 'Collections';
  return {
    list: endpoint({
      summary: `${plural} by name`,
      params: listQuery,
      response: collectionPageSchema,
      handle: ({ params }) => collections.list(kind, params),
    }),
    get: endpoint({
      summary: `A ${kind}`,
      path: idPath,
      response: collectionSchema,
      errors: { 404: [`${kind}_not_found`] },
      handle: ({ path }) => collections.get(kind, path.id),
    }),
    tracks: byIdEndpoint({
      summary: `A ${kind}'s tracks, in its order`,
      description: 'One request for the whole list, however long, instead of one per track.',
      response: trackListSchema,
      notFound: `${kind}_not_found`,
      handle: (caller, id) => ({ items: library.tracksOf(caller, collections.get(kind, id).trackIds) }),
    }),
    create: endpoint({
      summary: `Create a ${kind}`,
      params: {
        name: text(256),
        description: text(4096).optional(),
        trackIds: stringList(10_000, 64)
          .optional()
          .meta({ description: 'Track ids: a JSON array, a repeated parameter or a comma-separated list' }),
      },
      status: 201,
      response: collectionSchema,
      responseDescription: `The new ${kind}`,
      handle: ({ params, request }) => collections.create(kind, callerOf(request), params),
    }),
  };
}
