import type { ProblemCode } from '../server/errors.js';
import { ApiError } from './api.js';

/** Codes the page makes itself: the server could not be reached, or answered without a problem. */
type PageCode = 'network' | 'http_error';

/**
 * What the page says for each problem `code` (server/errors.ts), in plain words. The record is
 * exhaustive: a new server code without a sentence here does not compile. The server's `detail`
 * stays one click away (messages.ts).
 */
export const PLAIN_WORDS: Record<ProblemCode | PageCode, string> = {
  invalid_body: 'The page sent something the server could not read. Reload the page and try again.',
  invalid_parameter: 'One of the values is not accepted.',
  malformed_request: 'The page sent something the server could not read. Reload the page and try again.',
  not_found: 'That is not there any more.',
  method_not_allowed: 'The server does not allow that.',
  request_timeout: 'The server took too long. Try again.',
  payload_too_large: 'That file is too large (at most 20 MB).',
  unsupported_media_type: 'That kind of file is not accepted. Use a JPEG, PNG or WebP image.',
  headers_too_large: 'The request was too large for the server.',
  internal_error: 'Something went wrong on the server. Try again; if it keeps happening, check its log.',
  cross_origin_refused: 'The server refused a request from another site.',
  unknown_host: 'The server does not answer to this address.',
  missing_token: 'Please sign in.',
  invalid_token: 'Your sign-in has ended. Please sign in again.',
  forbidden_role: 'Your account cannot do that.',
  invalid_credentials: 'The username or password is wrong.',
  invalid_invite: 'That invite code is wrong, used or expired.',
  range_not_satisfiable: 'That part of the file does not exist.',
  busy: 'The server is busy converting other music. Try again in a few seconds.',
  starting: 'Melon is starting. Try again in a few seconds.',
  too_many_attempts: 'Too many attempts. Wait a few minutes, then try again.',
  too_many_invites: 'Five codes are already waiting. Revoke one, or wait until one is used or expires.',
  invite_not_found: 'That code can no longer be revoked: it was used, revoked or has expired.',
  user_not_found: 'That person no longer has an account.',
  username_taken: 'That username is taken. Choose another.',
  invalid_username:
    'That username has invisible or text-direction characters. Use letters, digits and ordinary symbols.',
  api_key_not_found: 'That app key no longer exists.',
  too_many_api_keys: 'You have 20 app keys already. Remove one you no longer use first.',
  last_admin: 'Melon needs at least one Admin. Make someone else an Admin first.',
  track_not_found: 'That track is no longer in the library.',
  album_not_found: 'That album is no longer in the library.',
  artist_not_found: 'That artist is no longer in the library.',
  playlist_not_found: 'That playlist no longer exists.',
  too_many_bookmarks: 'You have 1,000 bookmarks already. Remove one you no longer need first.',
  radio_station_not_found: 'That radio station no longer exists.',
  too_many_radio_stations: 'Melon keeps up to 500 radio stations. Remove one first.',
  collection_not_found: 'That collection no longer exists.',
  mix_not_found: 'Melon has no such mix.',
  not_owner: 'Only the person who made it, or an Admin, can change it.',
  stats_private: 'This person keeps their listening statistics private.',
  too_many_steps: 'That range is too long to chart. Choose a shorter one.',
  import_not_found: 'That import is not known here (any more). Start it again if it did not finish.',
  import_empty: 'That file is empty: there is nothing to import.',
  import_unrecognised: 'That file is not a listening history Melon knows.',
  import_archive_refused: 'That ZIP cannot be imported.',
  import_queue_full: 'One import is already waiting. Let it finish, then upload the next file.',
  artwork_not_found: 'There is no picture to delete there.',
  track_file_not_found: 'The audio file is missing from the music folder.',
  file_not_writable: 'Melon may not change that file. Check the music folder’s permissions.',
  invalid_position: 'That picture is gone already. The list has been refreshed.',
  unsupported_format: 'Pictures cannot be changed in this kind of audio file.',
  update_check_failed:
    'Melon could not reach its release page. Check the internet connection and try again later.',
  update_failed: 'The update could not be downloaded or did not check out, so nothing was installed.',
  update_in_progress: 'An update is already being installed.',
  update_check_locked:
    'MELON_UPDATE_CHECK=off is set where Melon runs. Remove it there to let Melon check daily.',
  no_release: 'No release of Melon has been published yet.',
  network: 'Could not reach the Melon server. Is it running?',
  http_error: 'The server gave an unexpected answer.',
};

/**
 * The history import's own sentence for `payload_too_large`: its upload limit is 1 GiB (docs/API.md,
 * Import and export), where the sentence above is about the 20 MiB of the other uploads.
 */
export const IMPORT_TOO_LARGE = 'That file is too large to import (at most 1 GB).';

/** Sentences a view words for its own context, by code, instead of the ones above. */
export type OwnWords = Partial<Record<ProblemCode | PageCode, string>>;

export interface Explained {
  /** The sentence for people. */
  text: string;
  /** The server's own words, shown on request (null when they add nothing). */
  detail: string | null;
}

export function explain(error: unknown, own: OwnWords = {}): Explained {
  if (error instanceof ApiError) {
    const code = error.code as ProblemCode | PageCode;
    const plain = own[code] ?? PLAIN_WORDS[code] ?? PLAIN_WORDS.http_error;
    // stats_private names the person: that is the clearer sentence.
    if (error.code === 'stats_private') return { text: `${error.detail}.`, detail: null };
    return { text: plain, detail: error.detail && error.detail !== plain ? error.detail : null };
  }
  return {
    text: 'Something went wrong in the page.',
    detail: error instanceof Error ? error.message : String(error),
  };
}
