/** An artist's image lists: profile pictures and banners. */
export type ArtistImageKind = 'pfp' | 'banner';
/** What has one picture of its own. */
export type SingleArtKind = 'playlist' | 'collection';

/** An image file the server named, and what it is. */
export interface StoredImage {
  file: string;
  mime: string;
  size: number;
}
