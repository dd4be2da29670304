/** A place in a track a user wants to come back to (an audiobook chapter, a long mix). */
export interface BookmarkRecord {
  trackId: string;
  /** Position within the track, in ms. */
  positionMs: number;
  comment: string | null;
  /** epoch ms */
  createdAt: number;
  /** epoch ms */
  changedAt: number;
}
