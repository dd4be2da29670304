import { delimiter } from 'node:path';
import { errnoCode } from '../fs/errno.js';
import { loadConfig } from '../config.js';
import { createServer, lanAddresses } from '../create-server.js';
import { tightHeapGrowth } from '../heap-growth.js';
import { createLogger } from '../logger.js';

/** What to do about a music folder that is not there, in the words of the banner. */
export function libraryFix(): string {
  const example = process.platform === 'win32' ? 'D:\\Music' : '/srv/music';
  return (
    `  To fix it, set MELON_LIBRARY to your music folder and start Melon again, e.g. ` +
    `MELON_LIBRARY=${example} npm start (several folders: separated by "${delimiter}")`
  );
}

/**
 * `melon` (or `npm start`): runs the headless server until SIGTERM or SIGINT. Configured by the
 * MELON_* environment variables (README, Configuration). Resolves once listening; the process then
 * lives on until a signal stops the server.
 */
export async function serve(env: NodeJS.ProcessEnv): Promise<void> {
  const logger = createLogger();
  const config = loadConfig(env);
  const server = await createServer({ config, logger, heapGrowth: tightHeapGrowth() });
  // Registered before listening: a signal that arrives just after the address is printed must
  // still shut down cleanly rather than take Node's default (exit by signal).
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal });
    // The whole shutdown has 5 s; in-flight requests get 4 of them.
    const force = setTimeout(() => process.exit(1), 5_000);
    force.unref();
    server.close(4_000).then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error('shutdown failed', { error: String(error) });
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  let url: string;
  try {
    url = await server.listen();
  } catch (error) {
    if (errnoCode(error) === 'EADDRINUSE') {
      console.error(
        `Port ${config.port} on ${config.host} is in use. Stop the other program or set MELON_PORT.`,
      );
      await server.close();
      process.exit(1);
    }
    throw error;
  }
  const port = new URL(url).port;
  console.log(`Melon ${config.version} is listening on ${url}`);
  if (config.host === '0.0.0.0') {
    for (const address of lanAddresses()) console.log(`  on your network: http://${address}:${port}`);
  }
  console.log(`  settings page: ${url}/admin    data folder: ${config.dataDir}`);
  const unavailable = server.services.library.folderProblems();
  for (const { path, reason } of unavailable) console.log(`  music folder unavailable: ${path} (${reason})`);
  if (unavailable.length > 0) console.log(libraryFix());
  if (server.firstAdmin?.generatedPassword) {
    console.log(
      `First start: made the Admin account '${server.firstAdmin.username}' with the password ` +
        `${server.firstAdmin.generatedPassword}\n  It is shown only this once and is not stored. ` +
        `Sign in and change it, or set MELON_ADMIN_PASSWORD before the first start.`,
    );
  } else if (!server.firstAdmin && config.adminPassword !== null) {
    // Only the first start uses it; saying so beats a silently ignored setting.
    logger.warn(
      'MELON_ADMIN_PASSWORD is ignored: the Admin account exists already. To replace a forgotten ' +
        'password, stop Melon and run: melon reset-password <username>',
    );
  }
}
