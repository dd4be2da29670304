import { MIX_IDS, mixHiddenSchema, mixListSchema, mixSchema } from '../../../contract/mixes.js';
import { trackListSchema } from '../../../contract/library.js';
import type { LibraryService } from '../../../services/library-service.js';
import type { MixService } from '../../../services/mixes/mix-service.js';
import { boolean, id } from '../../params.js';
import { byIdEndpoint, callerOf, endpoint } from '../../endpoint.js';

/** Melon's mixes (docs/API.md, Mixes): read-only playlists; each account may hide some. */
export function mixHandlers(mixes: MixService, library: LibraryService) {
  const hide = (hidden: boolean) =>
    endpoint({
      summary: hidden ? 'Hide one of the caller’s mixes' : 'Show one of the caller’s hidden mixes again',
      description: hidden
        ? 'A hidden mix is left out of the lists here and in Subsonic apps; it can still be opened by id.'
        : 'Showing a mix that is not hidden is fine.',
      params: { id: id().meta({ description: `The mix: ${MIX_IDS.join(', ')}` }) },
      response: mixHiddenSchema,
      errors: { 404: ['mix_not_found'] },
      handle: ({ params, request }) => mixes.setHidden(callerOf(request), params.id, hidden),
    });
  return {
    list: endpoint({
      summary: 'The caller’s mixes that have tracks',
      description:
        'In a fixed order. Each is made from the plays at the time of the request. Hidden mixes are left out unless `includeHidden=true`.',
      params: {
        includeHidden: boolean().default(false).meta({ description: 'List hidden mixes too' }),
      },
      response: mixListSchema,
      handle: async ({ params, request }) => ({
        items: await mixes.list(callerOf(request), params.includeHidden),
      }),
    }),
    get: byIdEndpoint({
      summary: 'One of the caller’s mixes, hidden or not, even without tracks',
      response: mixSchema,
      notFound: 'mix_not_found',
      handle: (caller, id) => mixes.get(caller, id),
    }),
    tracks: byIdEndpoint({
      summary: 'One of the caller’s mixes’ tracks, in its order, in one answer',
      response: trackListSchema,
      notFound: 'mix_not_found',
      handle: async (caller, id) => ({
        items: library.tracksOf(caller, (await mixes.get(caller, id)).trackIds),
      }),
    }),
    hide: hide(true),
    unhide: hide(false),
  };
}
