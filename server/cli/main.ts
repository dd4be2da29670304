import { ConfigError } from '../config.js';
import { DataFolderInUseError } from '../store/folder-lock.js';
import { resetPassword } from './reset-password.js';
import { serve } from './serve.js';

const USAGE = `Usage:
  melon                            start the server (configured by MELON_* variables, see the README)
  melon reset-password <username>  print a new password for the account (while Melon is stopped)
  melon help                       show this`;

/**
 * The `melon` command: picks a command from the arguments. Resolves to the exit code once the
 * command is done; for the server, once it listens (it then runs until a signal).
 */
export async function runCli(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [command, ...rest] = args;
  try {
    if (command === undefined || command === 'serve') {
      await serve(env);
      return 0;
    }
    if (command === 'reset-password' && rest.length === 1) return await resetPassword(rest[0]!, env);
    if (command === 'help' || command === '--help' || command === '-h') {
      console.log(USAGE);
      return 0;
    }
    console.error(`Unknown command: melon ${args.join(' ')}\n${USAGE}`);
    return 1;
  } catch (error) {
    // Problems the person at the machine can fix get their message alone, without a stack trace.
    if (error instanceof ConfigError || error instanceof DataFolderInUseError) console.error(error.message);
    else console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    return 1;
  }
}
