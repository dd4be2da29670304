import { z } from 'zod';
import { albumSchema, artistSchema, trackSchema } from './library.js';

export const searchResultSchema = z
  .object({ tracks: z.array(trackSchema), albums: z.array(albumSchema), artists: z.array(artistSchema) })
  .meta({ id: 'SearchResult' });
export type SearchResult = z.output<typeof searchResultSchema>;
