import { execFile } from 'node:child_process';
import { chmod } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Makes a folder that nobody, not even root, can write into, and returns how to undo it.
 * Tests often run as root, for whom file modes mean nothing; there the folder is made immutable
 * with `chattr +i` (ext4 and similar). Returns null when neither works on this machine.
 */
export async function makeUnwritable(dir: string): Promise<(() => Promise<void>) | null> {
  if (process.getuid?.() !== 0) {
    await chmod(dir, 0o555);
    return () => chmod(dir, 0o755);
  }
  try {
    await run('chattr', ['+i', dir]);
    return async () => {
      await run('chattr', ['-i', dir]);
    };
  } catch {
    return null;
  }
}
