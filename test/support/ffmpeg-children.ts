import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The ffmpeg processes the server (running in this test process) has started and that still run. */
export async function ffmpegChildren(): Promise<number[]> {
  const { stdout } = await run('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)]).catch(() => ({
    stdout: '',
  }));
  return stdout
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([, comm]) => comm === 'ffmpeg')
    .map(([pid]) => Number(pid));
}

/** Whether `condition` holds within `ms`, asked every 25 ms (and once more at the end). */
export async function waitFor(condition: () => Promise<boolean>, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return condition();
}
