import { readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { listFiles } from './support/tree-hash.js';

/**
 * Comments say why the code is as it is. A reader of the repository cannot follow a pointer to an
 * issue tracker or to a document it does not hold, and a date or a measured figure in a comment goes
 * stale while the code stays: those belong in the commit message and docs/BENCHMARKS.md. Pointers go
 * to docs/API.md sections by name.
 */
const root = join(import.meta.dirname, '..');

const RULES: Array<{ name: string; pattern: RegExp; folders: string[] }> = [
  {
    name: 'an issue number',
    pattern: /\bissues? #?\d+/i,
    folders: ['server', 'app', 'renderer', 'shared', 'scripts', 'test'],
  },
  {
    name: 'a section mark',
    pattern: /§\s*\d/,
    folders: ['server', 'app', 'renderer', 'shared', 'scripts', 'test'],
  },
  // Tests keep the dates of their data (a play at 2024-03-31 02:30 in a zone that skips it).
  {
    name: 'a date',
    pattern: /\b\d{4}-\d{2}-\d{2}\b/,
    folders: ['server', 'app', 'renderer', 'shared', 'scripts'],
  },
];

/** Every comment of a TypeScript file, with its line, found by the compiler's parser. */
function commentsOf(file: string, text: string): Array<{ line: number; text: string }> {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const seen = new Map<number, string>();
  const collect = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) seen.set(range.pos, text.slice(range.pos, range.end));
  };
  const visit = (node: ts.Node) => {
    collect(ts.getLeadingCommentRanges(text, node.pos));
    collect(ts.getTrailingCommentRanges(text, node.end));
    ts.forEachChild(node, visit);
  };
  visit(source);
  collect(ts.getLeadingCommentRanges(text, source.endOfFileToken.pos));
  return [...seen].map(([pos, comment]) => ({
    line: source.getLineAndCharacterOfPosition(pos).line + 1,
    text: comment,
  }));
}

describe('comments', () => {
  it('hold no issue numbers, section marks or dates, only reasons', async () => {
    const offences: string[] = [];
    const folders = new Set(RULES.flatMap((rule) => rule.folders));
    for (const folder of folders) {
      for (const path of await listFiles(join(root, folder))) {
        if (!/\.ts$/.test(path) || path.includes(`${sep}node_modules${sep}`)) continue;
        const file = relative(root, path).split(sep).join('/');
        const rules = RULES.filter((rule) => rule.folders.includes(folder));
        for (const comment of commentsOf(file, await readFile(path, 'utf8'))) {
          for (const rule of rules) {
            const found = rule.pattern.exec(comment.text);
            if (found) offences.push(`${file}:${comment.line} ${rule.name}: ${found[0]}`);
          }
        }
      }
    }
    expect(offences).toEqual([]);
  });

  it('are found by the parser, not inside strings or templates', () => {
    const comments = commentsOf(
      'sample.ts',
      "const a = '// issue 1'; // kept\n/** doc */\nconst b = `/* ${a} */`; /* last */\n",
    );
    expect(comments.map((comment) => comment.text)).toEqual(['// kept', '/** doc */', '/* last */']);
  });
});
