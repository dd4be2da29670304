import { mkdir, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { statFiles, type FileFacts } from '../../../server/library/file-stats.js';
import { tempDirPerFile } from '../../support/temp-dir.js';

const temp = tempDirPerFile('melon-file-stats-');

/** Every path's facts as statFiles gives them, by index; fails on an index given twice or never. */
async function factsOf(paths: string[], workersFrom?: number): Promise<Array<FileFacts | null>> {
  const given = new Map<number, FileFacts | null>();
  await statFiles(
    paths,
    (index, facts) => {
      expect(given.has(index)).toBe(false);
      given.set(index, facts);
    },
    workersFrom === undefined ? {} : { workersFrom },
  );
  expect([...given.keys()].sort((a, b) => a - b)).toEqual(paths.map((_, i) => i));
  return paths.map((_, i) => given.get(i)!);
}

async function expectedOf(file: string): Promise<FileFacts | null> {
  const info = await stat(file).catch(() => null);
  return info?.isFile() ? { size: info.size, mtimeMs: info.mtimeMs, dev: info.dev, ino: info.ino } : null;
}

describe('looking at many files at once', () => {
  // Workers from the first path, and the thread pool: a rescan of a large library and of a small one.
  for (const [name, workersFrom] of [
    ['in worker threads', 0],
    ['through the thread pool', undefined],
  ] as const) {
    it(`tells a rescan each file's size, time and identity as fs.stat does, ${name}`, async () => {
      const dir = temp.path(`kinds-${name}`);
      await mkdir(path.join(dir, 'album'), { recursive: true });
      await writeFile(path.join(dir, 'album', 'a.mp3'), 'x'.repeat(1234));
      await writeFile(path.join(dir, 'album', 'b.flac'), '');
      await symlink(path.join(dir, 'album', 'a.mp3'), path.join(dir, 'link.mp3'));
      await symlink(path.join(dir, 'gone.mp3'), path.join(dir, 'dangling.mp3'));
      const paths = ['album/a.mp3', 'album/b.flac', 'link.mp3', 'dangling.mp3', 'missing.mp3', 'album']
        .map((p) => path.join(dir, p))
        .concat(path.join(dir, 'album', 'a.mp3', 'not-a-folder.mp3'));
      const facts = await factsOf(paths, workersFrom);
      expect(facts).toEqual(await Promise.all(paths.map(expectedOf)));
      // A link counts as the file it leads to; a folder, a missing file or a broken path as nothing.
      expect(facts[2]).toEqual(facts[0]);
      expect(facts[0]!.size).toBe(1234);
      expect(facts.slice(3)).toEqual([null, null, null, null]);
    });
  }

  it('gives every one of thousands of files once, from several workers', async () => {
    const dir = temp.path('many');
    const paths: string[] = [];
    for (let album = 0; album < 30; album++) {
      await mkdir(path.join(dir, String(album)), { recursive: true });
      for (let track = 0; track < 50; track++) {
        const file = path.join(dir, String(album), `${track}.mp3`);
        await writeFile(file, 'y'.repeat(album * 50 + track));
        paths.push(file);
      }
    }
    const facts = await factsOf(paths, 0);
    expect(facts.map((f) => f?.size)).toEqual(paths.map((_, i) => i));
  });
});
