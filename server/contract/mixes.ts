import { z } from 'zod';
import { utc } from './common.js';

/** Melon's mixes (docs/API.md, Mixes): every account has each of them, made from its listening. */
export const MIX_IDS = [
  'mix-top-month',
  'mix-on-repeat',
  'mix-forgotten',
  'mix-household',
  'mix-new',
  'mix-on-this-day',
] as const;
export type MixId = (typeof MIX_IDS)[number];

export const mixSchema = z
  .object({
    id: z.enum(MIX_IDS),
    name: z.string(),
    description: z.string(),
    trackIds: z.array(z.string()).meta({ description: 'In the mix’s order; library tracks only' }),
    household: z.boolean().meta({
      description: 'Made from the plays of every member whose statistics the caller may read',
    }),
    hidden: z.boolean().meta({ description: 'The caller hid it (listed only with includeHidden)' }),
    madeAt: utc().meta({ description: 'When it was made: mixes follow the plays as they arrive' }),
  })
  .meta({ id: 'Mix', description: 'A read-only playlist Melon makes from the listening.' });
export type Mix = z.output<typeof mixSchema>;

export const mixListSchema = z.object({ items: z.array(mixSchema) }).meta({ id: 'MixList' });
export type MixList = z.output<typeof mixListSchema>;

export const mixHiddenSchema = z.object({ id: z.enum(MIX_IDS), hidden: z.boolean() });
