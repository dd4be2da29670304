/** Sentences the page builds from numbers and dates, kept pure so each wording is tested once. */
import type { ScanStatus } from '../server/contract/library.js';
import { formatAgo } from './format.js';
import { count } from './plural.js';

/** The library's scan state: never "every file was read except 0 files". */
export function scanSummary(
  status: Pick<ScanStatus, 'running' | 'filesSeen' | 'filesTotal' | 'problemCount'>,
): string {
  if (status.running)
    return `Looking through the music folders: ${status.filesSeen} of ${count(status.filesTotal, 'file', 'files')}…`;
  if (status.problemCount === 0) return 'Every file was read.';
  return `Every file was read except ${count(status.problemCount, 'file', 'files')}.`;
}

/** When an app password was made and last used: "Made 3 days ago · last used just now by DSub". */
export function keyUsage(
  key: { createdAt: string; lastUsedAt: string | null; lastUsedBy?: string | null },
  now = Date.now(),
): string {
  const made = `Made ${formatAgo(key.createdAt, now)}`;
  if (key.lastUsedAt === null) return `${made} · not used yet`;
  return `${made} · last used ${formatAgo(key.lastUsedAt, now)}${key.lastUsedBy ? ` by ${key.lastUsedBy}` : ''}`;
}
