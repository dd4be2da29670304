import { cp, open, readFile, stat, utimes, writeFile, type FileHandle } from 'node:fs/promises';
import { describe, expect, it, vi } from 'vitest';
import { plainTrack, type LibraryIndex, type TrackRecord } from '../../../server/domain/library.js';
import { StoreFileError } from '../../../server/store/json-document.js';
import {
  CHUNK_BYTES,
  isInLines,
  readLibraryFile,
  readLibraryMark,
  readLibraryStamp,
  sameMark,
  writeLibraryFile,
} from '../../../server/store/library-file.js';
import { LibraryRepo } from '../../../server/store/library-repo.js';
import { makeLibrary, plainLibrary } from '../../factories/library.js';
import { tempDirPerTest } from '../../support/temp-dir.js';

const temp = tempDirPerTest('melon-library-file-');

/** A library whose records use every field a record can have, with text JSON must escape. */
function everyField(): LibraryIndex {
  const index = makeLibrary({
    artists: [
      { id: 'ar1', name: 'Simon & "Garfunkel"' },
      { id: 'ar2', name: 'Björk\nGuðmundsdóttir' },
    ],
    albums: [{ id: 'al1', name: 'Bookends ]}, {', artistIds: ['ar1', 'ar2'] }],
    tracks: [
      { id: 't1', name: 'Mrs. Robinson', artistIds: ['ar1'], genres: ['Folk', 'Rock'] },
      { id: 't2', name: 'Line\u2028separator', albumId: null, artistIds: [], genres: [] },
      { id: 't3', name: '"],"tracks":[', artistIds: ['ar1', 'ar2'] },
    ],
  });
  index.albums[0]!.artist = 'Simon & Garfunkel';
  const full: TrackRecord = {
    ...index.tracks[0]!,
    dev: 2049,
    ino: 2 ** 40 + 7,
    mtimeMs: 1_700_000_000_123.456,
    size: 5 * 2 ** 32,
    artist: 'Simon & Garfunkel',
    trackNumber: null,
    discNumber: null,
    year: null,
    artwork: [
      { pos: 0, type: 'front', mime: 'image/jpeg', width: 600, height: 600, size: 81_234 },
      { pos: 1, type: 'back', mime: 'image/png', width: null, height: null, size: 12 },
    ],
    recordingMbid: 'b1a9c0e9-d987-4042-ae91-78d6a3267d69',
    releaseMbid: 'f3e9d2c1-1234-4abc-9def-0123456789ab',
    artistMbids: ['5ae54dee-4dba-49c0-802a-a3b3b3adfe9b'],
  };
  index.tracks[0] = full;
  return index;
}

/** Each write's stamp: new every time, for what was saved against one library to know it. */
const STAMP = expect.stringMatching(/^[0-9a-f]{16}$/u) as unknown;

describe('library.json', () => {
  it('gets a new stamp at every write, read from its head without the rest, and the store knows it', async () => {
    const path = temp.path('library.json');
    const first = await writeLibraryFile(path, everyField());
    const second = await writeLibraryFile(path, everyField());
    expect(first).toMatch(/^[0-9a-f]{16}$/u);
    expect(second).not.toBe(first);
    expect(await readLibraryStamp(path)).toBe(second);
    const repo = await LibraryRepo.open(path);
    expect(repo.mark?.stamp).toBe(second);
    expect(repo.mark).toEqual(await readLibraryMark(path));
    await repo.updateTrack(plainTrack(repo.track('t1')!));
    expect(repo.mark?.stamp).not.toBe(second);
    expect(await readLibraryStamp(path)).toBe(repo.mark?.stamp);
    expect(repo.mark).toEqual(await readLibraryMark(path));
  });

  it('is told apart from the same file edited by hand with its head kept, by its size and time', async () => {
    const path = temp.path('library.json');
    await writeLibraryFile(path, everyField());
    const before = (await readLibraryMark(path))!;
    const text = await readFile(path, 'utf8');
    await writeFile(path, text.replace('}\n', '} \n'));
    const after = (await readLibraryMark(path))!;
    expect(after.stamp).toBe(before.stamp);
    expect(sameMark(after, before)).toBe(false);
    expect(sameMark(after, { ...after })).toBe(true);
  });

  it('is the same mark once copied with its times kept, as a backup restores it', async () => {
    const path = temp.path('library.json');
    const copy = temp.path('restored.json');
    await writeLibraryFile(path, everyField());
    // A time finer than a millisecond, which a copy that keeps times may drop.
    await utimes(path, 1_700_000_000.123_456, 1_700_000_000.123_456);
    await cp(path, copy, { preserveTimestamps: true });
    const original = (await readLibraryMark(path))!;
    const restored = (await readLibraryMark(copy))!;
    expect(sameMark(restored, original)).toBe(true);
    await utimes(copy, 1_700_000_001, 1_700_000_001);
    expect(sameMark((await readLibraryMark(copy))!, original)).toBe(false);
  });

  it('has no stamp when the file is missing or was written before stamps, and still reads it', async () => {
    const path = temp.path('library.json');
    expect(await readLibraryStamp(path)).toBeNull();
    await writeLibraryFile(path, everyField());
    const text = await readFile(path, 'utf8');
    await writeFile(path, text.replace(/"stamp":"[0-9a-f]{16}",/u, ''));
    expect(await isInLines(path)).toBe(true);
    expect(await readLibraryStamp(path)).toBeNull();
    expect(await readLibraryFile(path)).toStrictEqual(everyField());
  });

  it('keeps every field of every record through a write and a read', async () => {
    const index = everyField();
    await writeLibraryFile(temp.path('library.json'), index);
    expect(await readLibraryFile(temp.path('library.json'))).toStrictEqual(index);
  });

  it('reads a large library a few dozen KB a turn, so requests are answered between', async () => {
    const tracks = Array.from({ length: 4000 }, (_, i) => ({ id: `t${i}`, artistIds: ['ar1'] }));
    const file = temp.path('library.json');
    await writeLibraryFile(file, makeLibrary({ artists: [{ id: 'ar1' }], albums: [{ id: 'al1' }], tracks }));
    let turn = 0;
    let reading = true;
    const next = () => {
      turn += 1;
      if (reading) setImmediate(next);
    };
    setImmediate(next);
    const perTurn = new Map<number, number>();
    const read = await readLibraryFile(file, {
      artist: (raw) => raw,
      album: (raw) => raw,
      track: (raw) => {
        perTurn.set(turn, (perTurn.get(turn) ?? 0) + 1);
        return raw;
      },
    });
    reading = false;
    expect(read?.tracks).toHaveLength(tracks.length);
    const bytesPerTrack = (await stat(file)).size / tracks.length;
    expect(Math.max(...perTurn.values()) * bytesPerTrack).toBeLessThanOrEqual(96 * 1024);
  });

  it('waits for the turn it is given between chunks, so its read gives way to other work', async () => {
    const tracks = Array.from({ length: 4000 }, (_, i) => ({ id: `t${i}`, artistIds: ['ar1'] }));
    const file = temp.path('library.json');
    await writeLibraryFile(file, makeLibrary({ artists: [{ id: 'ar1' }], albums: [{ id: 'al1' }], tracks }));
    let turns = 0;
    let readBeforeTurn = 0;
    let read = 0;
    const result = await readLibraryFile(
      file,
      {
        artist: (raw) => raw,
        album: (raw) => raw,
        track: (raw) => {
          read += 1;
          return raw;
        },
      },
      async () => {
        if (turns === 0) readBeforeTurn = read;
        turns += 1;
        await new Promise((resolve) => setImmediate(resolve));
      },
    );
    expect(result?.tracks).toHaveLength(tracks.length);
    // A turn after each chunk the file is read in: the first once a chunk's records are read.
    const chunks = Math.ceil((await stat(file)).size / CHUNK_BYTES);
    expect(turns).toBe(chunks);
    expect(readBeforeTurn).toBeGreaterThan(0);
    expect(readBeforeTurn).toBeLessThan(tracks.length);
  });

  it('writes every byte even when the disk takes part of a write at a time', async () => {
    // A nearly full disk may take part of a write; the file must still be whole before it replaces
    // the old one. Every single write call here takes at most 7 bytes.
    const probe = await open(temp.path('probe'), 'w');
    const handles = Object.getPrototypeOf(probe) as FileHandle;
    await probe.close();
    const write = Reflect.get(handles, 'write') as (...args: unknown[]) => Promise<unknown>;
    const short = vi.spyOn(handles, 'write').mockImplementation(function (
      this: FileHandle,
      data: unknown,
      ...rest: unknown[]
    ) {
      const cut = typeof data === 'string' ? data.slice(0, 7) : data;
      return write.call(this, cut, ...rest) as never;
    });
    try {
      await writeLibraryFile(temp.path('library.json'), everyField());
    } finally {
      short.mockRestore();
    }
    expect(await readLibraryFile(temp.path('library.json'))).toStrictEqual(everyField());
  });

  it('is one JSON document any reader can read, a record a line', async () => {
    const index = everyField();
    await writeLibraryFile(temp.path('library.json'), index);
    const text = await readFile(temp.path('library.json'), 'utf8');
    expect(JSON.parse(text)).toStrictEqual({ schemaVersion: 1, stamp: STAMP, ...index });
    const records = text.split('\n').filter((line) => line.startsWith('{"id":'));
    expect(records.map((line) => JSON.parse(line.replace(/,$/, '')) as unknown)).toStrictEqual([
      ...index.artists,
      ...index.albums,
      ...index.tracks,
    ]);
  });

  it('still opens a library.json an older Melon wrote on one line, or a person pretty-printed, and writes it a record a line', async () => {
    const index = everyField();
    for (const text of [
      JSON.stringify({ schemaVersion: 1, ...index }),
      JSON.stringify({ schemaVersion: 1, ...index }, null, 2),
    ]) {
      await writeFile(temp.path('library.json'), text);
      const repo = await LibraryRepo.open(temp.path('library.json'));
      expect(plainLibrary(repo.index())).toStrictEqual(index);
      expect(plainTrack(repo.track('t1')!)).toStrictEqual(index.tracks[0]);
      // Written a record a line at once, so the next start reads it a line at a time.
      expect(await isInLines(temp.path('library.json'))).toBe(true);
      expect(JSON.parse(await readFile(temp.path('library.json'), 'utf8'))).toStrictEqual({
        schemaVersion: 1,
        stamp: STAMP,
        ...index,
      });
    }
  });

  it('opens an empty library when there is no file, and writes one', async () => {
    const repo = await LibraryRepo.open(temp.path('library.json'));
    expect(repo.index()).toStrictEqual({ tracks: [], albums: [], artists: [] });
    expect(JSON.parse(await readFile(temp.path('library.json'), 'utf8'))).toStrictEqual({
      schemaVersion: 1,
      stamp: STAMP,
      artists: [],
      albums: [],
      tracks: [],
    });
  });

  it('refuses a cut-off or newer file, and leaves it as it was', async () => {
    await writeLibraryFile(temp.path('library.json'), everyField());
    const whole = await readFile(temp.path('library.json'), 'utf8');
    const cutOff = whole.slice(0, whole.lastIndexOf('\n', whole.length - 2) + 1);
    for (const [text, message] of [
      [cutOff, /not valid JSON/],
      [whole.slice(0, -10), /not valid JSON/],
      [JSON.stringify({ schemaVersion: 2, tracks: [], albums: [], artists: [] }), /schema version 2/],
    ] as const) {
      await writeFile(temp.path('library.json'), text);
      const error = await LibraryRepo.open(temp.path('library.json')).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreFileError);
      expect((error as Error).message).toMatch(message);
      expect(await readFile(temp.path('library.json'), 'utf8')).toBe(text);
    }
  });

  it('keeps a scan and an edit across a restart', async () => {
    const index = everyField();
    const repo = await LibraryRepo.open(temp.path('library.json'));
    await repo.replace(structuredClone(index));
    const edited = { ...index.tracks[2]!, artwork: [], name: 'Edited' };
    await repo.updateTrack(edited);
    const reopened = await LibraryRepo.open(temp.path('library.json'));
    expect(plainTrack(reopened.track('t3')!)).toStrictEqual(edited);
    expect(reopened.index().tracks.map((track) => track.id)).toEqual(['t1', 't2', 't3']);
    expect(plainLibrary(reopened.index())).toStrictEqual({
      ...index,
      tracks: [index.tracks[0], index.tracks[1], edited],
    });
  });
});
