import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listFiles } from './support/tree-hash.js';

/**
 * The server's layers point down only: adapters (http/) → services → store → domain. A module may
 * import from its own layer and from those below, never from one above, so a layer can be read,
 * tested and replaced without the ones that use it.
 */
const server = join(import.meta.dirname, '..', 'server');

/** What each folder of server/ must not import, by the folder (or file) it would import from. */
const FORBIDDEN: Record<string, readonly string[]> = {
  domain: ['store', 'services', 'http', 'library', 'cli', 'create-server', 'config'],
  store: ['services', 'http', 'library', 'cli', 'create-server'],
  library: ['store', 'services', 'http', 'cli', 'create-server'],
  services: ['http', 'cli', 'create-server'],
  contract: ['domain', 'store', 'services', 'http', 'library', 'cli', 'create-server'],
  fs: ['domain', 'store', 'services', 'http', 'library', 'cli', 'create-server'],
};

/** Within services: statistics never reach into history (history reads the statistics' rows). */
const FORBIDDEN_WITHIN: Record<string, readonly string[]> = {
  'services/stats': ['services/history'],
};

/**
 * The statistics index is built by the services from what the store offers (the play log read from
 * a position, the saved index file); no store module names it, not even as an interface it calls.
 */
const STATS_INDEX_NAMES = /\b(?:StatsIndex|statsIndex|PlayIndex|playIndex)\b|\bstats index\b/;

const IMPORT = /(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g;

/** Every relative import of every server module, as paths under server/ ('services/stats/x.ts'). */
async function serverImports(): Promise<Array<{ from: string; to: string }>> {
  const edges: Array<{ from: string; to: string }> = [];
  for (const file of await listFiles(server)) {
    if (!file.endsWith('.ts')) continue;
    const text = await readFile(file, 'utf8');
    for (const [, specifier] of text.matchAll(IMPORT)) {
      const target = resolve(dirname(file), specifier!);
      edges.push({ from: posix(relative(server, file)), to: posix(relative(server, target)) });
    }
  }
  return edges;
}

function posix(path: string): string {
  return path.split(sep).join('/');
}

const within = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`);
const topOf = (path: string) => path.split('/')[0]!.replace(/\.[jt]s$/, '');

describe('server layers', () => {
  it('import only their own layer and the layers below it', async () => {
    const upward = (await serverImports())
      .filter(({ from, to }) => (FORBIDDEN[topOf(from)] ?? []).includes(topOf(to)))
      .map(({ from, to }) => `${from} → ${to}`);
    expect(upward).toEqual([]);
  });

  it('keep statistics from importing history, so the two never depend on each other both ways', async () => {
    const crossing = (await serverImports())
      .filter(({ from, to }) =>
        Object.entries(FORBIDDEN_WITHIN).some(
          ([folder, banned]) => within(from, folder) && banned.some((other) => within(to, other)),
        ),
      )
      .map(({ from, to }) => `${from} → ${to}`);
    expect(crossing).toEqual([]);
  });

  it('keep the store unaware of the statistics index: the services feed it and save it', async () => {
    const naming: string[] = [];
    for (const file of await listFiles(join(server, 'store'))) {
      if (!file.endsWith('.ts')) continue;
      const lines = (await readFile(file, 'utf8')).split('\n');
      lines.forEach((line, i) => {
        if (STATS_INDEX_NAMES.test(line))
          naming.push(`${posix(relative(server, file))}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(naming).toEqual([]);
  });

  it('finds the imports it checks: the services import the store and the domain', async () => {
    const edges = await serverImports();
    expect(edges.some(({ from, to }) => topOf(from) === 'services' && topOf(to) === 'store')).toBe(true);
    expect(edges.some(({ from, to }) => topOf(from) === 'store' && topOf(to) === 'domain')).toBe(true);
  });
});
