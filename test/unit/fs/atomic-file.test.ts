import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as atomic from '../../../server/fs/atomic-file.js';

describe('writeFileAtomic', () => {
  it('leaves the old file and no temp file behind when the write fails', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'melon-atomic-'));
    const path = join(dir, 'x.json');
    await writeFile(path, 'old');
    // A directory where the temp file's folder should be makes the rename fail.
    await mkdir(join(dir, 'sub'));
    await expect(atomic.writeFileAtomic(join(dir, 'sub'), 'new')).rejects.toThrow();
    expect(await readFile(path, 'utf8')).toBe('old');
    const { readdir } = await import('node:fs/promises');
    expect((await readdir(dir)).sort()).toEqual(['sub', 'x.json']);
    await chmod(dir, 0o755);
    await rm(dir, { recursive: true });
  });
});

describe('writeSynced', () => {
  it('keeps what was written, and leaves no half-written file when the writing fails', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'melon-synced-'));
    const path = join(dir, 'next');
    await atomic.writeSynced(path, 'w', 0o600, async (handle) => {
      await handle.write('one\n');
      await handle.write('two\n');
    });
    expect(await readFile(path, 'utf8')).toBe('one\ntwo\n');
    const failed = join(dir, 'failed');
    await expect(
      atomic.writeSynced(failed, 'w', 0o600, async (handle) => {
        await handle.write('half');
        throw new Error('the listens could not be offered');
      }),
    ).rejects.toThrow('the listens could not be offered');
    const { readdir } = await import('node:fs/promises');
    expect(await readdir(dir)).toEqual(['next']);
    await rm(dir, { recursive: true });
  });
});
