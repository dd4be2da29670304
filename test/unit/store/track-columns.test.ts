import { describe, expect, it } from 'vitest';
import { plainTrack, type TrackRecord } from '../../../server/domain/library.js';
import { TrackColumns } from '../../../server/store/track-columns.js';

const cover = { pos: 0, type: 'front', mime: 'image/jpeg', width: 600, height: 600, size: 81_234 };

/** Records using every field and the edges of each column, each field its own copy as JSON.parse makes. */
function records(): TrackRecord[] {
  const full: TrackRecord = {
    id: '0123456789abcdef',
    path: '/music/Simon & Garfunkel/Bookends/01 Mrs. Robinson.flac',
    size: 5 * 2 ** 32,
    mtimeMs: 1_700_000_000_123.456,
    dev: 2049,
    ino: 2 ** 40 + 7,
    name: 'Mrs. Robinson',
    artist: 'Simon & Garfunkel',
    albumId: 'al1',
    artistIds: ['ar1', 'ar2'],
    genres: ['Folk', 'Rock'],
    durationMs: 244_123.5,
    trackNumber: 1,
    discNumber: 2,
    year: 1968,
    format: 'flac',
    artwork: [cover, { pos: 1, type: 'back', mime: 'image/png', width: null, height: null, size: 12 }],
    recordingMbid: 'b1a9c0e9-d987-4042-ae91-78d6a3267d69',
    releaseMbid: 'f3e9d2c1-1234-4abc-9def-0123456789ab',
    artistMbids: ['5ae54dee-4dba-49c0-802a-a3b3b3adfe9b'],
  };
  const older: TrackRecord = {
    id: 't2',
    path: 'C:\\Music\\Björk\\Ø – ünïcödé 🎵.mp3',
    size: 0,
    mtimeMs: 0,
    name: 'Line\u2028separator "quoted" 🎵',
    albumId: null,
    artistIds: [],
    genres: [],
    durationMs: 0,
    trackNumber: null,
    discNumber: null,
    year: null,
    format: 'mp3',
    artwork: [],
  };
  const odd: TrackRecord = {
    ...older,
    id: 't3',
    path: 'no-folder.ogg',
    name: 'A damaged tag \ud800 keeps its text',
    artist: 'Lone \udc00 surrogate in a long credit',
    trackNumber: 2.5,
    discNumber: -0x80000000,
    year: 2 ** 40,
    recordingMbid: '',
  };
  return structuredClone([full, older, odd]);
}

describe('TrackColumns', () => {
  it('gives back every field of every record as it was put in', () => {
    const columns = new TrackColumns();
    const views = records().map((record) => columns.add(record));
    columns.seal();
    expect(views.map(plainTrack)).toStrictEqual(records());
    for (const [i, view] of views.entries())
      for (const [key, value] of Object.entries(records()[i]!))
        expect(view[key as keyof TrackRecord]).toStrictEqual(value);
  });

  it('leaves out the fields a record an older Melon made did not have', () => {
    const columns = new TrackColumns();
    const older = records()[1]!;
    const view = columns.add(older);
    expect(Object.keys(plainTrack(view)).sort()).toEqual(Object.keys(older).sort());
    expect(view.dev).toBeUndefined();
    expect(view.artist).toBeUndefined();
    expect(view.artistMbids).toBeUndefined();
  });

  it('writes a track as JSON just as its plain record, and a spread of its copy is the record', () => {
    const columns = new TrackColumns();
    for (const record of records()) {
      const view = columns.add(record);
      expect(JSON.parse(JSON.stringify(view))).toStrictEqual(JSON.parse(JSON.stringify(record)));
      expect(JSON.stringify([view])).toBe(JSON.stringify([plainTrack(record)]));
      expect({ ...plainTrack(view) }).toStrictEqual(record);
    }
  });

  it("shares one frozen copy of an album's repeated lists and covers among its tracks", () => {
    const columns = new TrackColumns();
    const [a, b] = [records()[0]!, { ...records()[0]!, id: 'other' }].map((record) => columns.add(record));
    expect(b!.artistIds).toBe(a!.artistIds);
    expect(b!.genres).toBe(a!.genres);
    expect(b!.artwork).toBe(a!.artwork);
    expect(() => a!.genres.push('Pop')).toThrow(TypeError);
    expect(() => {
      a!.artwork[0]!.size = 1;
    }).toThrow(TypeError);
  });

  it('adds an edited track as a new row, leaving what an earlier view reads as it was', () => {
    const columns = new TrackColumns();
    const before = columns.add(records()[0]!);
    columns.seal();
    const after = columns.add({ ...plainTrack(before), name: 'Edited', genres: ['Pop'], artwork: [] });
    expect(before.name).toBe('Mrs. Robinson');
    expect(before.genres).toEqual(['Folk', 'Rock']);
    expect(after.name).toBe('Edited');
    expect(after.genres).toEqual(['Pop']);
    expect(after.artistIds).toBe(before.artistIds);
    expect(columns.length).toBe(2);
  });

  it('refuses a change made on a track itself: a track is read-only', () => {
    const view = new TrackColumns().add(records()[0]!);
    expect(() => {
      (view as { name: string }).name = 'Changed';
    }).toThrow(TypeError);
  });

  it('takes an edit after a whole library was read without doubling the memory it holds', () => {
    const columns = new TrackColumns();
    const base = records()[0]!;
    const rows = 20_000;
    for (let i = 0; i < rows; i++) columns.add({ ...base, id: `${i}`.padStart(16, '0'), name: `Track ${i}` });
    columns.seal();
    // Typed arrays and buffers a row: 5 numbers, 3 whole numbers, 9 pooled values, 4 text ends,
    // and the id's, title's and file name's bytes.
    const held = rows * (5 * 8 + 3 * 4 + 9 * 4 + 4 * 4 + 16 + 11 + 21);
    const before = process.memoryUsage().arrayBuffers;
    columns.add({ ...base, id: 'edited', name: 'Edited' });
    // New room is taken before the old is let go: twice the columns would be 2 × held more.
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(1.5 * held);
  });

  it('holds many rows, the columns growing as rows are added', () => {
    const columns = new TrackColumns();
    const base = records()[0]!;
    const views = Array.from({ length: 5000 }, (_, i) =>
      columns.add({
        ...base,
        id: `t${i}`,
        name: `Track ${i}`,
        trackNumber: i,
        path: `/music/a${i % 7}/f${i}.flac`,
      }),
    );
    columns.seal();
    expect(views[4999]!.id).toBe('t4999');
    expect(views[1234]!.path).toBe('/music/a2/f1234.flac');
    expect(views[77]!.trackNumber).toBe(77);
    expect(views[0]!.name).toBe('Track 0');
  });

  it('keeps track numbers and years past two bytes, and a library of more than 65,536 albums, as they were', () => {
    const columns = new TrackColumns();
    const base = records()[0]!;
    const wholes = (i: number) => ({
      trackNumber: i % 3 === 0 ? null : i % 5 === 0 ? 2.5 : (i % 97) - 40,
      discNumber: i === 70_001 ? 40_000 : i % 4 === 0 ? null : 1,
      year: i === 69_999 ? -0x80000000 : i > 70_001 && i % 2 === 0 ? 2 ** 31 - 2 : 1900 + (i % 150),
    });
    const views = Array.from({ length: 70_100 }, (_, i) =>
      columns.add({ ...base, id: `t${i}`, albumId: `al${i}`, ...wholes(i) }),
    );
    columns.seal();
    for (const i of [0, 1, 5, 9, 65_535, 65_536, 69_999, 70_000, 70_001, 70_002, 70_099]) {
      const { trackNumber, discNumber, year, albumId } = views[i]!;
      expect({ trackNumber, discNumber, year, albumId }).toEqual({ ...wholes(i), albumId: `al${i}` });
    }
  });

  it("holds a row's small whole numbers and pooled values in two bytes each", () => {
    const columns = new TrackColumns();
    const base = records()[0]!;
    const rows = 20_000;
    for (let i = 0; i < rows; i++) columns.add({ ...base, id: `${i}`.padStart(16, '0'), name: `Track ${i}` });
    columns.seal();
    // 5 numbers, 4 text ends and the id's, title's, file name's and recording id's bytes: ~140
    // bytes; then 3 whole numbers and 9 pooled values, 24 bytes at two bytes each (48 at four).
    expect(columns.byteLength / rows).toBeGreaterThan(140);
    expect(columns.byteLength / rows).toBeLessThan(140 + 24 + 12);
  });
});
