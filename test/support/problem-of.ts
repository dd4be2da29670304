import { AppError } from '../../server/errors.js';

/**
 * "ok", or the status and code of the AppError a service call threw ("401 stats_private"): what a
 * client would see, without HTTP. Any other error fails the test as it is.
 */
export async function problemOf(attempt: () => unknown): Promise<string> {
  try {
    await attempt();
    return 'ok';
  } catch (error) {
    if (error instanceof AppError) return `${error.status} ${error.code}`;
    throw error;
  }
}
