import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FolderLister } from '../../../server/library/folder-lister.js';
import { findAudioFiles } from '../../../server/library/folder-walk.js';
import { tempDirPerTest } from '../../support/temp-dir.js';
import { watchWorkers } from '../../support/worker-threads.js';

const temp = tempDirPerTest('melon-folder-walk-');
const workers = watchWorkers();

/** A library of many small album folders, and its audio files in path order. */
async function albums(count: number): Promise<{ music: string; expected: string[] }> {
  const music = temp.path('music');
  const expected: string[] = [];
  for (let n = 0; n < count; n++) {
    const dir = path.join(music, `Artist ${n % 10}`, `Album ${n}`);
    await mkdir(dir, { recursive: true });
    for (const name of ['1.mp3', '2.flac']) {
      await writeFile(path.join(dir, name), '');
      expected.push(path.join(dir, name));
    }
  }
  return { music, expected: expected.sort() };
}

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
    const byWorkers = await findAudioFiles([music, temp.path('missing')], { lister });
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

  for (const [story, killed] of [
    ['one worker dies part-way', (nth: number) => nth === 1],
    ['every worker dies part-way', () => true],
  ] as const)
    it(`still finds every audio file and ends when ${story}`, async () => {
      const { music, expected } = await albums(300);
      workers.onStart((worker, nth) => {
        if (killed(nth)) worker.once('message', () => void worker.terminate());
      });
      const { files, problems } = await findAudioFiles([music], { lister: new FolderLister(0) });
      expect(problems).toEqual([]);
      expect(files.map((f) => f.path)).toEqual(expected);
      expect(await workers.settled()).toBe(0);
    });

  it('finds every audio file when no worker can start', async () => {
    const { music, expected } = await albums(50);
    workers.onStart(() => {
      throw new Error('out of threads');
    });
    const { files } = await findAudioFiles([music], { lister: new FolderLister(0) });
    expect(files.map((f) => f.path)).toEqual(expected);
    expect(await workers.settled()).toBe(0);
  });

  it('stops, workers and all, when the scan is stopped part-way', async () => {
    const { music } = await albums(300);
    const stop = new AbortController();
    workers.onStart((worker) => worker.once('message', () => stop.abort(new Error('server closing'))));
    const walk = findAudioFiles([music], { lister: new FolderLister(0, stop.signal), signal: stop.signal });
    await expect(walk).rejects.toThrow('server closing');
    expect(await workers.settled()).toBe(0);
  });

  it('leaves most of the thread pool to the server while a small library is walked', async () => {
    // The pool's four threads also open the streams being played and write the server's files.
    const { music, expected } = await albums(200);
    let inFlight = 0;
    let most = 0;
    class Counting extends FolderLister {
      override async list(dir: string) {
        most = Math.max(most, ++inFlight);
        try {
          return await super.list(dir);
        } finally {
          inFlight--;
        }
      }
    }
    const { files } = await findAudioFiles([music], { lister: new Counting() });
    expect(files.map((f) => f.path)).toEqual(expected);
    expect(most).toBeLessThanOrEqual(8);
  });

  it('sends the folders asked for in one turn to a worker together', async () => {
    const { music } = await albums(40);
    let answers = 0;
    workers.onStart((worker) => worker.on('message', () => answers++));
    const lister = new FolderLister(0);
    const dirs = Array.from({ length: 40 }, (_, n) => path.join(music, `Artist ${n % 10}`, `Album ${n}`));
    const listings = await Promise.all(dirs.map((dir) => lister.list(dir)));
    await lister.close();
    expect(listings.every((l) => 'names' in l && l.names.length === 2)).toBe(true);
    // 32 folders a message at most: two messages, not one a folder.
    expect(answers).toBe(2);
  });
});
