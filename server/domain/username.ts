/**
 * Usernames are shown as typed but compared by a key, so that names a person cannot tell apart are
 * one name: `Zoë` typed as `e` + combining diaeresis, fullwidth `Ａｄｍｉｎ` and `ADMIN` all find
 * `admin`'s account and cannot be registered beside it.
 */

/** NFKC, then a case fold (upper then lower folds `ß` to `ss` as full case folding does), NFKC again. */
export function usernameKey(name: string): string {
  return name.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');
}

/**
 * Characters that are invisible or reorder text (Unicode "format" characters: zero-width spaces and
 * joiners, bidi embeddings, overrides and isolates, the word joiner, the BOM) and control characters.
 * A name holding one can look exactly like another name, so it is refused rather than folded away.
 */
const HIDDEN = /[\p{Cf}\p{Cc}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/u;

/** Why a username cannot be used (a sentence for people), or null when it can. */
export function usernameProblem(name: string): string | null {
  if (HIDDEN.test(name)) return 'A username cannot contain invisible, control or text-direction characters';
  if (usernameKey(name).trim() === '') return 'A username needs at least one visible character';
  return null;
}
