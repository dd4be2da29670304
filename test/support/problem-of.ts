import { expect } from 'vitest';
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

/** The AppError a promise rejects with; fails the test when it resolves or rejects with anything else. */
export async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected a rejection');
}
