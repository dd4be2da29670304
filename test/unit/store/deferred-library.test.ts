import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { plainTrack } from '../../../server/domain/library.js';
import { DeferredLibrary } from '../../../server/store/deferred-library.js';
import { makeLibrary } from '../../factories/library.js';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function libraryFile(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'melon-deferred-library-'));
  dirs.push(dir);
  return join(dir, 'library.json');
}

const scanned = makeLibrary({
  artists: [{ id: 'ar1' }],
  albums: [{ id: 'al1', artistIds: ['ar1'] }],
  tracks: [{ id: 't1' }, { id: 't2' }],
});

describe('a library read after the server listens', () => {
  it('is never read or written once its store has closed', async () => {
    // Reading may write library.json (a first one, an older layout rewritten): after the store let
    // go of the data folder, another Melon may hold it.
    const path = await libraryFile();
    const library = new DeferredLibrary(path);
    library.close();
    await expect(library.open()).rejects.toThrow(/closed/);
    await library.flush();
    await expect(access(path)).rejects.toThrow(/ENOENT/);
    expect(library.index().tracks).toEqual([]);
  });

  it('is empty until it has read library.json, then holds what the last scan stored', async () => {
    const path = await libraryFile();
    const first = new DeferredLibrary(path);
    await first.open();
    await first.replace(structuredClone(scanned));

    const later = new DeferredLibrary(path);
    expect(later.index().tracks).toEqual([]);
    expect(later.track('t1')).toBeUndefined();
    await later.flush();
    await later.open();
    expect(later.index().tracks.map((track) => track.id)).toEqual(['t1', 't2']);
    expect(later.album('al1')?.id).toBe('al1');
    expect(later.artist('ar1')?.id).toBe('ar1');
  });

  it('takes a change asked for before it read the file once it has read it, and keeps it', async () => {
    const path = await libraryFile();
    const library = new DeferredLibrary(path);
    await library.replace(structuredClone(scanned));
    expect(library.track('t2')?.id).toBe('t2');
    await library.updateTrack({ ...plainTrack(library.track('t2')!), name: 'Renamed' });
    await library.flush();

    const again = new DeferredLibrary(path);
    await again.open();
    expect(again.track('t2')?.name).toBe('Renamed');
  });
});
