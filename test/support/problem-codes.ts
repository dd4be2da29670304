import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { listFiles } from './tree-hash.js';

/**
 * Every `code` a Melon problem document may carry (docs/API.md). test/fuzz/limits.test.ts checks
 * that each code the server's source throws is listed here, so a new code cannot slip past the fuzzer.
 */
export const KNOWN_PROBLEM_CODES: ReadonlySet<string> = new Set([
  // http layer
  'invalid_body',
  'invalid_parameter',
  'method_not_allowed',
  'not_found',
  'payload_too_large',
  'unsupported_media_type',
  'internal_error',
  'cross_origin_refused',
  'headers_too_large',
  'malformed_request',
  'request_timeout',
  // auth
  'missing_token',
  'invalid_token',
  'forbidden_role',
  'invalid_credentials',
  'too_many_attempts',
  'invalid_invite',
  'too_many_invites',
  // users
  'user_not_found',
  'username_taken',
  'last_admin',
  // library, playlists, collections
  'track_not_found',
  'album_not_found',
  'artist_not_found',
  'playlist_not_found',
  'collection_not_found',
  // stats
  'stats_private',
  'too_many_steps',
  // artwork
  'artwork_not_found',
  'track_file_not_found',
  'file_not_writable',
  'invalid_position',
  'unsupported_format',
  // updates
  'update_check_failed',
  'update_failed',
  'update_in_progress',
  'no_release',
]);

const LITERAL_CODE = [
  /\b(?:badRequest|notFound|conflict|unauthorized|tooManyRequests)\(\s*'([a-z_]+)'/g,
  /new AppError\(\s*\d+,\s*'([a-z_]+)'/g,
];

/** The problem codes written as literals in server/ (calls of the errors.ts helpers and AppError). */
export async function codesInServerSource(root: string): Promise<Set<string>> {
  const codes = new Set<string>();
  for (const file of await listFiles(join(root, 'server'))) {
    if (!file.endsWith('.ts')) continue;
    const source = await readFile(file, 'utf8');
    for (const pattern of LITERAL_CODE) for (const match of source.matchAll(pattern)) codes.add(match[1]!);
  }
  return codes;
}
