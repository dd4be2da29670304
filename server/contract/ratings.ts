import { z } from 'zod';

/** The answer of rating a track, album or artist. */
export const ratingResultSchema = z.object({ id: z.string(), rating: z.int().min(0).max(10) });
export type RatingResult = z.output<typeof ratingResultSchema>;
