/**
 * The benches' server configuration: the first Admin, no update checks, a free port on loopback.
 * On its own, importing only the server, because the bench's server process runs built JavaScript
 * (scripts/server-process.ts) and this is transpiled beside it.
 */
import { loadConfig } from '../server/config.js';

export const ADMIN_USER = 'admin';
export const ADMIN_PASSWORD = 'bench admin password 1';

export function benchConfig(dataDir: string) {
  return loadConfig(
    {
      MELON_ADMIN_USER: ADMIN_USER,
      MELON_ADMIN_PASSWORD: ADMIN_PASSWORD,
      MELON_RELEASES_URL: 'http://127.0.0.1:9',
    },
    { dataDir, port: 0, host: '127.0.0.1', libraryDirs: [] },
  );
}
