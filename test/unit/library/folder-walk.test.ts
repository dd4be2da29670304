import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FolderLister } from '../../../server/library/folder-lister.js';
import { findAudioFiles } from '../../../server/library/folder-walk.js';
import { tempDirPerTest } from '../../support/temp-dir.js';

const temp = tempDirPerTest('melon-folder-walk-');

describe('the folder walk', () => {
  it('finds a folder reachable both directly and through a link always under its own path', async () => {
    // Tracks take their ids from their paths: if the path a folder is found under depended on which
    // listing the disk answered first, its tracks would change ids from one scan to the next.
    const music = temp.path('music');
    const expected: string[] = [];
    for (let n = 1; n <= 6; n++) {
      const real = path.join(music, `x${n}`);
      await mkdir(path.join(real, 'disc'), { recursive: true });
      for (const name of ['a.mp3', 'b.mp3', path.join('disc', 'c.mp3')]) {
        await writeFile(path.join(real, name), '');
        expected.push(path.join(real, name));
      }
      await symlink(real, path.join(music, `y${n}`));
    }
    expected.sort();
    for (let run = 0; run < 30; run++) {
      const { files, problems } = await findAudioFiles([music]);
      expect(problems).toEqual([]);
      expect(files.map((f) => f.path)).toEqual(expected);
    }
  });

  it('follows a link into another music folder, and lists what it reaches once', async () => {
    const music = temp.path('music');
    const shared = path.join(music, 'shared');
    await mkdir(path.join(shared, 'albums', 'one'), { recursive: true });
    await writeFile(path.join(shared, 'albums', 'one', 't.flac'), '');
    await mkdir(path.join(music, 'mine'), { recursive: true });
    await symlink(path.join(shared, 'albums'), path.join(music, 'mine', 'linked'));
    const { files } = await findAudioFiles([path.join(music, 'mine'), shared]);
    expect(files.map((f) => f.path)).toEqual([path.join(music, 'mine', 'linked', 'one', 't.flac')]);
  });

  // A large library's folders are listed by worker threads: the walk finds the same there.
  it('finds every audio file, link and problem alike whether its folders are listed by workers or by the pool', async () => {
    const music = temp.path('music');
    const outside = temp.path('outside');
    await mkdir(outside, { recursive: true });
    await writeFile(path.join(outside, 'x.mp3'), '');
    for (let artist = 0; artist < 5; artist++)
      for (let album = 0; album < 4; album++) {
        const dir = path.join(music, `Artist ${artist}`, `Album ${album}`);
        await mkdir(path.join(dir, '.hidden'), { recursive: true });
        for (const name of [
          '01 a.mp3',
          '02 b.FLAC',
          'cover.jpg',
          '.skipped.mp3',
          path.join('.hidden', 'c.mp3'),
        ])
          await writeFile(path.join(dir, name), '');
      }
    await symlink(path.join(music, 'Artist 0', 'Album 0'), path.join(music, 'Artist 1', 'again'));
    await symlink(path.join(music, 'Artist 0', 'Album 1', '01 a.mp3'), path.join(music, 'linked.mp3'));
    await symlink(outside, path.join(music, 'Artist 2', 'elsewhere'));
    await symlink(path.join(music, 'gone'), path.join(music, 'dangling.mp3'));
    await writeFile(path.join(music, 'Artist 3', 'notes.txt'), '');

    const byPool = await findAudioFiles([music, temp.path('missing')]);
    const lister = new FolderLister(0);
    const byWorkers = await findAudioFiles([music, temp.path('missing')], lister);
    expect(byWorkers).toEqual(byPool);
    expect(byPool.files).toHaveLength(5 * 4 * 2 + 1);
    expect(byPool.problems.map((p) => p.path)).toEqual([path.join(music, 'Artist 2', 'elsewhere')]);
    expect(byPool.roots.map((r) => r.status)).toEqual(['ok', 'missing']);
  });

  it('reports a folder it cannot list, from a worker as from the pool', async () => {
    const file = temp.path('plain.mp3');
    await writeFile(file, '');
    for (const lister of [new FolderLister(), new FolderLister(0)]) {
      expect(await lister.list(file)).toEqual({ error: 'ENOTDIR' });
      expect(await lister.list(temp.path('nothing'))).toEqual({ error: 'ENOENT' });
      await lister.close();
    }
  });
});
