/**
 * Folds the ways one recording's names are written differently by different services, so
 * "Beyoncé feat. JAY-Z – Crazy in Love (Remastered 2011)" and "beyonce - crazy in love" meet.
 */

/** Bracketed suffixes that describe an edition rather than a different recording. */
const EDITION =
  /\s*[([][^)\]]*\b(remaster(ed)?|re-?master(ed)?|deluxe|expanded|anniversary|bonus track|mono|stereo|single version|album version|radio edit|explicit|clean)\b[^)\]]*[)\]]/giu;
/** " - Remastered 2011", " - 2011 Remaster", " - 2019 Mix" (Spotify's style). */
const DASH_EDITION =
  /\s+-\s+(?:(?:\d{4}\s+)?(?:remaster(?:ed)?|re-?master(?:ed)?|mono|stereo|single version|album version|radio edit)|\d{4}\s+(?:\w+\s+)?(?:mix|version))\b.*$/iu;
/** Guest credits inside a title: "(feat. X)", "[ft. X]", "feat. X". */
const TITLE_CREDIT = /\s*([([]\s*)?\b(feat|ft|featuring|with)\b\.?\s[^)\]]*([)\]])?/iu;
/** Where an artist credit starts listing others: "A feat. B", "A ft B", "A featuring B", "A & B", "A, B". */
const ARTIST_SPLIT = /\s*(?:\bfeat\b\.?|\bft\b\.?|\bfeaturing\b|&|,)\s*/iu;

/** Lower case, accents and punctuation dropped, spaces collapsed. */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/['’`]/gu, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export function normaliseTitle(title: string): string {
  const stripped = title.replace(EDITION, '').replace(DASH_EDITION, '').replace(TITLE_CREDIT, '');
  return fold(stripped) || fold(title);
}

export function normaliseAlbum(album: string): string {
  const stripped = album.replace(EDITION, '');
  return fold(stripped) || fold(album);
}

/** The main artist of a credit: the part before any "feat./ft./&/," list of others. */
export function normaliseArtist(artist: string): string {
  const main = artist.split(ARTIST_SPLIT)[0] ?? artist;
  const folded = fold(main.replace(/^the\s+/iu, ''));
  return folded || fold(artist);
}

/**
 * A whole artist credit with its punctuation dropped (a leading "The" too): "Earth, Wind & Fire",
 * "Earth Wind & Fire" (lastfm-to-csv drops every comma) and "Tyler, The Creator" meet their
 * library artists by it, where the main artist alone ("earth", "tyler") would find another.
 */
export function foldCredit(artist: string): string {
  return fold(artist.replace(/^the\s+/iu, '')) || fold(artist);
}
