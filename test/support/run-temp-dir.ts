import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Vitest's global setup: one folder for everything a run writes to the temporary directory, removed
 * when the run ends. Test files, the servers and tools they start (ffmpeg, Chromium) and the helpers
 * that make temporary folders all ask `os.tmpdir()`, which reads TMPDIR: the workers are started
 * after this sets it, so they inherit it. A file that leaves a folder behind (a test that failed
 * half-way, a server killed with SIGKILL) leaves it here, not in the machine's /tmp for good.
 */
export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'melon-test-run-'));
  const before = process.env.TMPDIR;
  process.env.TMPDIR = root;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    rmSync(root, { recursive: true, force: true });
  };
}
