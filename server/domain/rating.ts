/** What a user can rate. */
export type RatingKind = 'track' | 'album' | 'artist';
