/**
 * How deep a JSON body may nest. Real bodies nest a few levels (a ListenBrainz listen: payload,
 * listen, track_metadata, additional_info, a list of tags); a body nested 100,000 deep is a few
 * hundred kilobytes and parses, but every recursive walk after (validation, logging, an answer that
 * echoes it) overflows the stack.
 */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether a parsed JSON value nests deeper than `max` arrays and objects. A loop with its own stack,
 * never recursion, so checking the value cannot overflow what the check protects.
 */
export function nestsDeeperThan(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const pending: Array<[unknown, number]> = [[value, 1]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth > max) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) {
      if (child !== null && typeof child === 'object') pending.push([child, depth + 1]);
    }
  }
  return false;
}
