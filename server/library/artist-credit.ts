/**
 * A track's artists as credited and as separate people (docs/API.md, Library: "Artists as credited").
 *
 * The ARTIST tag is a credit, written for people to read: "Simon & Garfunkel", "Earth, Wind & Fire",
 * "Tyler, The Creator" are each one artist, and "Beyoncé feat. JAY-Z" is two. A credit is kept whole
 * for display, exports and matching. The separate artists come from the file when it lists them (the
 * multi-valued ARTISTS tag Picard and beets write, or several ARTIST values); else the credit is split
 * only where a separator cannot be part of a name (`;`, ` / `, ` feat. `, ` ft. `). `&` and `,` are
 * parts of too many names to split on, unless the MusicBrainz artist ids say how many artists there are.
 */

/** Separators no artist name contains. "AC/DC" has no spaces around its slash, so it stays whole. */
const UNAMBIGUOUS = /\s*;\s*|\s+\/\s+|\s+(?:feat|ft)\.\s+/i;
/** `&` and `,`: only split on when the MusicBrainz ids count more artists than the credit names. */
const AMBIGUOUS = /\s+&\s+|\s*,\s+/;

/** Trims, drops empty parts and case-insensitive duplicates (the first spelling wins). */
export function distinctNames(names: Iterable<string>): string[] {
  const seen = new Map<string, string>();
  for (const part of names) {
    const name = part.trim();
    if (name && !seen.has(name.toLowerCase())) seen.set(name.toLowerCase(), name);
  }
  return [...seen.values()];
}

/** The artists of a credit split on the separators no name contains. */
export function splitCredit(credit: string): string[] {
  return distinctNames(credit.split(UNAMBIGUOUS));
}

export interface CreditTags {
  /** The ARTIST (or ALBUMARTIST) tag, whole. */
  credit: string | null;
  /** The artists the file lists one by one (ARTISTS, several ARTIST values); [credit] or [] when it does not. */
  listed: string[];
  /** How many MusicBrainz artist ids the file holds for the same credit (0: none). */
  mbidCount: number;
}

/** The separate artists of a credit (see the module comment); [] without any name. */
export function separateArtists({ credit, listed, mbidCount }: CreditTags): string[] {
  const whole = credit?.trim() ?? '';
  const own = distinctNames(listed);
  if (own.length > 1 || (own.length === 1 && own[0]!.toLowerCase() !== whole.toLowerCase()))
    return distinctNames(own.flatMap(splitCredit));
  if (!whole) return [];
  // One id: one artist, even where the credit reads like two ("Ike & Tina Turner" is one).
  if (mbidCount === 1) return [whole];
  const parts = splitCredit(whole);
  if (mbidCount > parts.length) {
    const finer = distinctNames(parts.flatMap((p) => p.split(AMBIGUOUS)));
    if (finer.length === mbidCount) return finer;
  }
  return parts;
}
