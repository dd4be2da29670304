import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
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
});
