import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TIERS } from '../vitest.tiers.js';
import { listFiles } from './support/tree-hash.js';

/** The suite layout of test/README.md, checked so that a new test cannot quietly break it. */
const root = join(import.meta.dirname, '..');
const unitDir = join(root, 'test', 'unit');
const OTHER_ROOTS = ['app', 'renderer', 'shared'];
const MAX_SOURCE_LINES = 400;

async function unitTests(): Promise<string[]> {
  return (await listFiles(unitDir))
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => relative(unitDir, file).split(sep).join('/'))
    .sort();
}

/**
 * test/unit/<path>.test.ts tests app|renderer|shared/<path>.ts when it starts with one of those, else
 * server/<path>.ts; `<path>.<aspect>.test.ts` tests one aspect of that module (scanner.formats).
 */
function sourceOf(test: string): string {
  const path = test.replace(/(\.[a-z-]+)?\.test\.ts$/, '.ts');
  return OTHER_ROOTS.includes(path.split('/')[0]!) ? path : `server/${path}`;
}

describe('test/unit', () => {
  it('mirrors the source tree: every test names the module it tests', async () => {
    const orphans = (await unitTests()).filter((test) => !existsSync(join(root, sourceOf(test))));
    expect(orphans).toEqual([]);
  });

  it('starts no whole server: those tests belong in test/api', async () => {
    const wholeServer =
      /from '[./]*(support\/server|support\/child-server|server\/create-server|app\/main)\.js'|import\('[./]*app\/main\.js'\)/;
    const offenders: string[] = [];
    for (const test of await unitTests()) {
      if (wholeServer.test(await readFile(join(unitDir, test), 'utf8'))) offenders.push(test);
    }
    expect(offenders).toEqual([]);
  });
});

/** `test/<folder>/**\/*.test.ts`, `test/*.test.ts` or one file: the shapes of the tiers' patterns. */
function matches(file: string, pattern: string): boolean {
  if (pattern.endsWith('/**/*.test.ts')) return file.startsWith(pattern.slice(0, -'**/*.test.ts'.length));
  if (pattern.endsWith('/*.test.ts')) {
    const folder = pattern.slice(0, -'*.test.ts'.length);
    return file.startsWith(folder) && !file.slice(folder.length).includes('/');
  }
  return file === pattern;
}

describe('test/', () => {
  it('test/README.md names every folder of the suite', async () => {
    const readme = await readFile(join(root, 'test', 'README.md'), 'utf8');
    const folders = (await readdir(join(root, 'test'), { withFileTypes: true }))
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.filter((folder) => !readme.includes(`**\`${folder}/\`**`))).toEqual([]);
  });

  it('puts every test file in a tier that an npm script runs: unit, api or slow', async () => {
    const tests = (await listFiles(join(root, 'test')))
      .filter((file) => file.endsWith('.test.ts'))
      .map((file) => relative(root, file).split(sep).join('/'));
    const patterns = Object.values(TIERS).flat();
    expect(tests.filter((test) => !patterns.some((pattern) => matches(test, pattern)))).toEqual([]);
  });
});

describe('the source', () => {
  it('has no file over 400 lines: a longer one holds more than one thing to name', async () => {
    const long: string[] = [];
    for (const folder of ['server', 'app', 'renderer', 'scripts', 'shared']) {
      if (!existsSync(join(root, folder))) continue;
      for (const file of await listFiles(join(root, folder))) {
        if (!/\.(ts|css|html)$/.test(file)) continue;
        const lines = (await readFile(file, 'utf8')).split('\n').length - 1;
        if (lines > MAX_SOURCE_LINES) long.push(`${relative(root, file)}: ${lines}`);
      }
    }
    expect(long).toEqual([]);
  });
});
