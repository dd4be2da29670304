import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer } from '../support/child-server.js';

/**
 * Members who can write to a music folder must never reach Melon's data folder (its secret key,
 * accounts and history) from inside the library, nor the other way round. Melon refuses to start
 * when one folder lies inside the other, compared by real paths so a link cannot hide it.
 */
let base: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'melon-overlap-'));
  await mkdir(join(base, 'music', 'melon-data'), { recursive: true });
  await mkdir(join(base, 'data', 'music'), { recursive: true });
  // A link to the music folder, so the paths as written look unrelated.
  await symlink(join(base, 'music'), join(base, 'looks-apart'));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

async function start(dataDir: string, library: string): Promise<{ code: number | null; output: string }> {
  const server = spawnServer({
    MELON_DATA_DIR: dataDir,
    MELON_LIBRARY: library,
    MELON_ADMIN_PASSWORD: 'correct horse battery staple',
    MELON_RELEASES_URL: 'http://127.0.0.1:9',
  });
  server.url.catch(() => undefined);
  const code = await server.exited;
  return { code, output: server.output() };
}

describe('a data folder and a music folder that overlap', () => {
  it('refuses to start when the data folder is inside a music folder, naming both', async () => {
    const { code, output } = await start(join(base, 'music', 'melon-data'), join(base, 'music'));
    expect(code).toBe(1);
    const lines = output.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`data folder ${join(base, 'music', 'melon-data')}`);
    expect(lines[0]).toContain(`music folder ${join(base, 'music')}`);
  }, 30_000);

  it('refuses to start when a music folder is inside the data folder', async () => {
    const { code, output } = await start(join(base, 'data'), join(base, 'data', 'music'));
    expect(code).toBe(1);
    expect(output.trim()).toMatch(/^The music folder .* is inside the data folder .*$/);
  }, 30_000);

  it('sees through a link: the data folder inside a music folder reached by another name', async () => {
    const { code, output } = await start(join(base, 'looks-apart', 'melon-data'), join(base, 'music'));
    expect(code).toBe(1);
    expect(output).toContain('is inside the music folder');
  }, 30_000);
});
