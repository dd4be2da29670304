/** What a user can star (Subsonic's `star`): a favourite is per user and has the date it was starred. */
export type FavouriteKind = 'track' | 'album' | 'artist';
