import { z } from 'zod';
import { alwaysTrue } from './common.js';

/** A picture at a position deleted (a track's, an artist's). */
export const deletedPictureSchema = z.object({ deleted: alwaysTrue(), id: z.string(), pos: z.int().min(0) });
export type DeletedPicture = z.output<typeof deletedPictureSchema>;

/** A playlist's or collection's artwork deleted. */
export const deletedArtworkSchema = z.object({ deleted: alwaysTrue(), id: z.string() });
export type DeletedArtwork = z.output<typeof deletedArtworkSchema>;

export const deletedDefaultArtworkSchema = z.object({ deleted: alwaysTrue() });
export type DeletedDefaultArtwork = z.output<typeof deletedDefaultArtworkSchema>;

export const uploadedArtworkSchema = z
  .object({
    id: z.string().nullable().meta({ description: 'The owner; null for the default artwork' }),
    pos: z.int().min(0),
  })
  .meta({ id: 'UploadedArtwork' });
export type UploadedArtwork = z.output<typeof uploadedArtworkSchema>;
