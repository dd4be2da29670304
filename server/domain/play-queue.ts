/** A user's saved play queue, so playback can move from one device to another. */
export interface PlayQueueRecord {
  trackIds: string[];
  /** The track playing when it was saved, if any (one of trackIds). */
  current: string | null;
  /** Position within the current track, in ms. */
  positionMs: number;
  /** epoch ms */
  changedAt: number;
  /** The player that saved it (Subsonic's `c`), or null. */
  changedBy: string | null;
}
