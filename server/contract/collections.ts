import { z } from 'zod';
import { pageOf } from './common.js';

export const collectionSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    trackIds: z.array(z.string()),
    owner: z.string().meta({ description: 'The user id of the creator' }),
    hasArtwork: z.boolean(),
  })
  .meta({ id: 'Collection', description: 'A playlist or a collection.' });
export type Collection = z.output<typeof collectionSchema>;

export const collectionPageSchema = pageOf(collectionSchema, 'CollectionPage');
