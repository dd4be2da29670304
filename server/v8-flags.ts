/**
 * The value a numeric V8 option among Node's own options set (`--name=N`, with `-` or `_` between
 * the words, as V8 takes both); null when none did. The run-time settings (heap-growth.ts,
 * library/scan-reading.ts) go back to it, not to V8's default, when what they were set for ends.
 */
export function startedWith(execArgv: readonly string[], name: string): number | null {
  const pattern = new RegExp(`^--${name.replace(/[-_]/g, '[-_]')}=(\\d+)$`);
  let value: number | null = null;
  for (const arg of execArgv) {
    const match = pattern.exec(arg);
    if (match) value = Number(match[1]);
  }
  return value;
}
