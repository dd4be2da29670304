import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { plainTrack } from '../../../server/domain/library.js';
import * as atomic from '../../../server/fs/atomic-file.js';
import { LibraryRepo } from '../../../server/store/library-repo.js';
import { makeLibrary, plainLibrary } from '../../factories/library.js';
import { tempDirPerTest } from '../../support/temp-dir.js';

const temp = tempDirPerTest('melon-library-repo-');
afterEach(() => vi.restoreAllMocks());

const libraryOf = (...ids: string[]) =>
  makeLibrary({ artists: [{ id: 'ar1' }], albums: [{ id: 'al1' }], tracks: ids.map((id) => ({ id })) });

describe('LibraryRepo', () => {
  it('keeps showing what is on disk when a write fails, and writes the next change', async () => {
    const repo = await LibraryRepo.open(temp.path('library.json'));
    await repo.replace(libraryOf('t1'));
    const onDisk = await readFile(temp.path('library.json'), 'utf8');
    vi.spyOn(atomic, 'replaceFileAtomic').mockRejectedValueOnce(new Error('disk full'));
    await expect(repo.replace(libraryOf('t2'))).rejects.toThrow('disk full');
    await expect(
      repo.updateTrack({ ...libraryOf('t1').tracks[0]!, name: 'Edited' }),
    ).resolves.toBeUndefined();
    expect(repo.track('t2')).toBeUndefined();
    expect(repo.track('t1')?.name).toBe('Edited');
    expect(repo.index().tracks.map((track) => track.id)).toEqual(['t1']);
    expect(await readFile(temp.path('library.json'), 'utf8')).not.toBe(onDisk);
    const reopened = await LibraryRepo.open(temp.path('library.json'));
    expect(plainLibrary(reopened.index())).toStrictEqual(plainLibrary(repo.index()));
  });

  it('writes nothing for an edit of a track it does not have', async () => {
    const repo = await LibraryRepo.open(temp.path('library.json'));
    await repo.replace(libraryOf('t1'));
    const write = vi.spyOn(atomic, 'replaceFileAtomic');
    await repo.updateTrack({ ...libraryOf('t9').tracks[0]! });
    expect(write).not.toHaveBeenCalled();
    expect(repo.track('t9')).toBeUndefined();
  });

  it('refuses an edit made from a spread of a stored track, which holds none of its fields', async () => {
    const repo = await LibraryRepo.open(temp.path('library.json'));
    await repo.replace(libraryOf('t1'));
    const write = vi.spyOn(atomic, 'replaceFileAtomic');
    await expect(repo.updateTrack({ ...repo.track('t1')!, name: 'Edited' })).rejects.toThrow(/plainTrack/);
    expect(write).not.toHaveBeenCalled();
    await repo.updateTrack({ ...plainTrack(repo.track('t1')!), name: 'Edited' });
    expect(repo.track('t1')?.name).toBe('Edited');
  });

  it('applies changes asked for together one after another, each on the last', async () => {
    const repo = await LibraryRepo.open(temp.path('library.json'));
    const scanned = libraryOf('t1', 't2');
    const done = [
      repo.replace(scanned),
      repo.updateTrack({ ...scanned.tracks[0]!, name: 'First edit' }),
      repo.updateTrack({ ...scanned.tracks[1]!, name: 'Second edit' }),
    ];
    await Promise.all(done);
    await repo.flush();
    const reopened = await LibraryRepo.open(temp.path('library.json'));
    expect(reopened.index().tracks.map((track) => track.name)).toEqual(['First edit', 'Second edit']);
    expect(repo.track('t2')?.name).toBe('Second edit');
  });
});
