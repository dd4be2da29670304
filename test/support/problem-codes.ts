import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { listFiles } from './tree-hash.js';
import { PROBLEM_CODES } from '../../server/errors.js';

/**
 * Every `code` a Melon problem document may carry: the ProblemCode union of server/errors.ts (listed
 * for people in docs/API.md). test/fuzz/limits.test.ts checks that each code the server's source
 * throws is one of them, so a new code cannot slip past the fuzzer.
 */
export const KNOWN_PROBLEM_CODES: ReadonlySet<string> = new Set<string>(PROBLEM_CODES);

const LITERAL_CODE = [
  /\b(?:badRequest|notFound|forbidden|conflict|unauthorized|tooManyRequests)\(\s*'([a-z_]+)'/g,
  /new AppError\(\s*'([a-z_]+)'/g,
];

/** The problem codes written as literals in server/ (calls of the errors.ts helpers and AppError). */
export async function codesInServerSource(root: string): Promise<Set<string>> {
  const codes = new Set<string>();
  for (const file of await listFiles(join(root, 'server'))) {
    if (!file.endsWith('.ts')) continue;
    const source = await readFile(file, 'utf8');
    for (const pattern of LITERAL_CODE) for (const match of source.matchAll(pattern)) codes.add(match[1]!);
  }
  return codes;
}
