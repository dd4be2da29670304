/**
 * The errno code (`ENOENT`, `EACCES`…) of a failed file-system or socket call, or undefined for
 * anything else that was thrown. Catch clauses get `unknown`; this is the one place that looks inside.
 */
export function errnoCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}
