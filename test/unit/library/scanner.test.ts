import { createHash } from 'node:crypto';
import { copyFile, cp, mkdtemp, rename, rm, symlink, unlink, utimes } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { File as TagFile } from 'node-taglib-sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ensureFixtures } from '../../../scripts/make-fixtures.js';
import type { LibraryIndex } from '../../../server/domain/library.js';
import { albumId, artistId } from '../../../server/domain/library-ids.js';
import { scanLibrary, type ScanProgress } from '../../../server/library/scanner.js';
import * as tags from '../../../server/library/tags.js';
import { trackNamed } from '../../support/fixture-library.js';

// Wrap the tag reader so tests can count how many files a scan really re-read.
vi.mock('../../../server/library/tags.js', async (importOriginal) => {
  const original = await importOriginal<typeof tags>();
  return { ...original, readTrackFile: vi.fn(original.readTrackFile) };
});

const EMPTY: LibraryIndex = { tracks: [], albums: [], artists: [] };
const ID = /^[A-Za-z0-9_-]{1,64}$/;
const FORMATS = ['MP3', 'FLAC', 'M4A', 'OGG', 'OPUS', 'WAV'];
const ALBUM_DIR = path.join('Aurora Lane', 'Fixture Album');

let library: string;
let work: string;
let fixtureScan: { index: LibraryIndex; progress: ScanProgress };

beforeAll(async () => {
  library = path.join(await ensureFixtures(), 'library');
  fixtureScan = await scanLibrary([library], EMPTY);
});

beforeEach(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'melon-scan-'));
  await cp(library, work, { recursive: true });
  vi.mocked(tags.readTrackFile).mockClear();
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** `index` with `track` in place of the record of the same id, as a library left by another scan. */
function withTrack(index: LibraryIndex, track: LibraryIndex['tracks'][number]): LibraryIndex {
  return { ...index, tracks: index.tracks.map((t) => (t.id === track.id ? track : t)) };
}

function nameOf(index: LibraryIndex, id: string): string | undefined {
  return index.artists.find((a) => a.id === id)?.name;
}

describe('scanLibrary on the fixture library', () => {
  it('reads every format: tags, duration and pictures in file order', () => {
    const { index } = fixtureScan;
    FORMATS.forEach((fmt, i) => {
      const track = trackNamed(index, `Tone ${fmt}`);
      expect(track).toMatchObject({
        format: fmt.toLowerCase(),
        trackNumber: i + 1,
        discNumber: 1,
        year: 2021,
        genres: ['Synthpop', 'Ambient'],
      });
      expect(track.durationMs).toBeGreaterThanOrEqual(1950);
      expect(track.durationMs).toBeLessThanOrEqual(2150);
      expect(Number.isInteger(track.durationMs)).toBe(true);
      if (fmt === 'WAV') {
        expect(track.artwork).toEqual([]);
        return;
      }
      expect(track.artwork).toEqual([
        { pos: 0, type: 'front cover', mime: 'image/png', width: 64, height: 64, size: expect.any(Number) },
        // MP4's covr atom stores no picture type.
        {
          pos: 1,
          type: fmt === 'M4A' ? 'other' : 'back cover',
          mime: 'image/jpeg',
          width: 48,
          height: 32,
          size: expect.any(Number),
        },
      ]);
    });
  });

  it('splits "feat." artists, keys the album by its album artist and merges them across files', () => {
    const { index } = fixtureScan;
    const tracks = FORMATS.map((fmt) => trackNamed(index, `Tone ${fmt}`));
    const album = index.albums.find((a) => a.name === 'Fixture Album');
    expect(album).toEqual({
      id: albumId('Fixture Album', 'Aurora Lane'),
      name: 'Fixture Album',
      artist: 'Aurora Lane',
      artistIds: [artistId('Aurora Lane')],
      year: 2021,
    });
    for (const track of tracks) {
      expect(track.artist).toBe('Aurora Lane feat. The Static');
      expect(track.artistIds).toEqual([artistId('aurora lane'), artistId('The Static')]);
      expect(track.albumId).toBe(album?.id);
    }
    expect(index.artists.map((a) => a.name).sort()).toEqual(['Aurora Lane', 'The Static', 'untagged']);
  });

  it('falls back to the file and folder names for an untagged file', () => {
    const { index } = fixtureScan;
    const track = trackNamed(index, 'Lonely Song');
    expect(track).toMatchObject({ trackNumber: null, discNumber: null, year: null, genres: [], artwork: [] });
    expect(track.artistIds.map((id) => nameOf(index, id))).toEqual(['untagged']);
    expect(index.albums.find((a) => a.id === track.albumId)?.name).toBe('Lonely Folder');
  });

  it('lists the corrupt file in errors, keeps scanning and ignores non-audio files', () => {
    const { index, progress } = fixtureScan;
    expect(index.tracks).toHaveLength(7);
    expect(progress).toMatchObject({
      running: false,
      filesSeen: 8,
      filesTotal: 8,
      added: 7,
      updated: 0,
      removed: 0,
    });
    expect(progress.errors).toEqual([
      { path: path.join(library, 'broken', 'corrupt.mp3'), reason: expect.any(String) },
    ]);
    expect(index.tracks.some((t) => t.path.endsWith('.txt'))).toBe(false);
  });

  it('derives ids from the path and names, so a fresh scan gives the same ids', async () => {
    const again = await scanLibrary([library], EMPTY);
    expect(again.index).toEqual(fixtureScan.index);
    for (const t of again.index.tracks) {
      expect(t.id).toBe(createHash('sha256').update(`track\0${t.path}`).digest('hex').slice(0, 16));
    }
    const all = [...again.index.tracks, ...again.index.albums, ...again.index.artists].map((r) => r.id);
    for (const id of all) expect(id).toMatch(ID);
    expect(new Set(all).size).toBe(all.length);
  });
});

describe('incremental rescans', () => {
  it('does not re-read unchanged files', async () => {
    const first = await scanLibrary([work], EMPTY);
    expect(tags.readTrackFile).toHaveBeenCalledTimes(8);
    vi.mocked(tags.readTrackFile).mockClear();
    const second = await scanLibrary([work], first.index);
    // Only the corrupt file (never indexed) is tried again.
    expect(tags.readTrackFile).toHaveBeenCalledTimes(1);
    expect(second.index).toEqual(first.index);
    expect(second.progress).toMatchObject({ added: 0, updated: 0, removed: 0, filesSeen: 8 });
  });

  it("keeps an unchanged file's record as it was, without copying it", async () => {
    const first = await scanLibrary([work], EMPTY);
    const second = await scanLibrary([work], first.index);
    // The very same objects: a large library is not copied record by record on every rescan.
    second.index.tracks.forEach((track, i) => expect(track).toBe(first.index.tracks[i]));
  });

  it('gives back the library it was given when nothing changed, making no record anew', async () => {
    const first = await scanLibrary([work], EMPTY);
    const second = await scanLibrary([work], first.index);
    // The corrupt file is tried again, and still cannot be read: nothing new.
    expect(second.progress.errors.map((e) => path.basename(e.path))).toEqual(['corrupt.mp3']);
    expect(second.index.albums.length).toBeGreaterThan(0);
    for (const list of ['tracks', 'albums', 'artists'] as const) {
      // Lists of their own (the caller may change them), of the very same records.
      expect(second.index[list]).not.toBe(first.index[list]);
      second.index[list].forEach((record, i) => expect(record).toBe(first.index[list][i]));
    }
  });

  it('records the device a file is on again when a disk or share comes back under another number', async () => {
    const first = await scanLibrary([work], EMPTY);
    const mp3 = trackNamed(first.index, 'Tone MP3');
    const moved = { ...mp3, dev: mp3.dev! + 1 };
    const previous = withTrack(first.index, moved);
    vi.mocked(tags.readTrackFile).mockClear();
    const second = await scanLibrary([work], previous);
    // Not read again: the same inode, size and time is the same file.
    expect(tags.readTrackFile).toHaveBeenCalledTimes(1);
    expect(trackNamed(second.index, 'Tone MP3')).toEqual(mp3);
    expect(second.progress).toMatchObject({ added: 0, updated: 0, removed: 0 });
  });

  it('records the identity of an unchanged file whose record an older Melon made without one', async () => {
    const first = await scanLibrary([work], EMPTY);
    const mp3 = trackNamed(first.index, 'Tone MP3');
    const older = { ...mp3 };
    delete older.ino;
    delete older.dev;
    const previous = withTrack(first.index, older);
    const second = await scanLibrary([work], previous);
    expect(trackNamed(second.index, 'Tone MP3')).toEqual(mp3);
    expect(second.progress).toMatchObject({ added: 0, updated: 0, removed: 0 });
  });

  it('reads again a file swapped for another of the same size and time', async () => {
    const first = await scanLibrary([work], EMPTY);
    const mp3 = trackNamed(first.index, 'Tone MP3');
    const copy = `${mp3.path}.swap`;
    await copyFile(mp3.path, copy);
    await utimes(copy, new Date(mp3.mtimeMs), new Date(mp3.mtimeMs));
    await rename(copy, mp3.path);
    vi.mocked(tags.readTrackFile).mockClear();
    const second = await scanLibrary([work], first.index);
    // The corrupt file and the swapped one: same bytes, size and time, but another inode.
    expect(tags.readTrackFile).toHaveBeenCalledTimes(2);
    expect(trackNamed(second.index, 'Tone MP3').ino).not.toBe(mp3.ino);
    expect(second.progress).toMatchObject({ added: 0, updated: 1, removed: 0 });
  });

  it('reads again an unchanged file whose record an older Melon made, without the credited artist', async () => {
    const first = await scanLibrary([work], EMPTY);
    const mp3 = trackNamed(first.index, 'Tone MP3');
    // As an older Melon left it: no credit, and the credit split into artists by its own rules.
    const older = { ...mp3 };
    delete older.artist;
    const previous = withTrack(first.index, older);
    vi.mocked(tags.readTrackFile).mockClear();
    const second = await scanLibrary([work], previous);
    expect(tags.readTrackFile).toHaveBeenCalledTimes(2);
    expect(trackNamed(second.index, 'Tone MP3')).toEqual(mp3);
    expect(second.progress).toMatchObject({ added: 0, updated: 1, removed: 0 });
  });

  it('counts added, changed and removed files', async () => {
    const first = await scanLibrary([work], EMPTY);
    const album = path.join(work, ALBUM_DIR);
    await copyFile(path.join(album, '01 - Tone MP3.mp3'), path.join(album, '07 - Copy.mp3'));
    await utimes(path.join(album, '02 - Tone FLAC.flac'), new Date(), new Date(Date.now() + 5000));
    await unlink(path.join(album, '06 - Tone WAV.wav'));
    const seen: ScanProgress[] = [];
    const second = await scanLibrary([work], first.index, (p) => seen.push(p));
    expect(second.progress).toMatchObject({
      added: 1,
      updated: 1,
      removed: 1,
      filesTotal: 8,
      running: false,
    });
    expect(seen.at(-1)).toEqual(second.progress);
    expect(second.index.tracks.map((t) => path.basename(t.path))).toContain('07 - Copy.mp3');
    expect(second.index.tracks.some((t) => t.name === 'Tone WAV')).toBe(false);
    expect(trackNamed(second.index, 'Tone FLAC').id).toBe(trackNamed(first.index, 'Tone FLAC').id);
  });

  it('drops albums and artists no track references any more', async () => {
    const first = await scanLibrary([work], EMPTY);
    await rm(path.join(work, 'untagged'), { recursive: true });
    const second = await scanLibrary([work], first.index);
    expect(second.progress.removed).toBe(1);
    expect(second.index.artists.map((a) => a.name)).not.toContain('untagged');
    expect(second.index.albums.map((a) => a.name)).toEqual(['Fixture Album']);
  });

  it('keeps the first spelling of an artist in path order', async () => {
    const copy = path.join(work, ALBUM_DIR, '99 - Shouting.mp3');
    await copyFile(path.join(work, ALBUM_DIR, '01 - Tone MP3.mp3'), copy);
    const tagFile = TagFile.createFromPath(copy);
    tagFile.tag.performers = ['AURORA LANE'];
    tagFile.save();
    tagFile.dispose();
    const { index } = await scanLibrary([work], EMPTY);
    expect(nameOf(index, artistId('aurora lane'))).toBe('Aurora Lane');
    expect(index.artists.filter((a) => a.name.toLowerCase() === 'aurora lane')).toHaveLength(1);
  });
});

describe('folder walk', () => {
  it('survives symlink loops and ignores hidden files', async () => {
    await symlink(work, path.join(work, 'untagged', 'loop'));
    await copyFile(
      path.join(work, ALBUM_DIR, '01 - Tone MP3.mp3'),
      path.join(work, ALBUM_DIR, '.hidden.mp3'),
    );
    const { index, progress } = await scanLibrary([work], EMPTY);
    expect(progress.filesTotal).toBe(8);
    expect(index.tracks).toHaveLength(7);
  });

  it('scans several folders and a missing one without failing', async () => {
    const { index } = await scanLibrary([path.join(work, 'untagged'), path.join(work, 'nope')], EMPTY);
    expect(index.tracks.map((t) => t.name)).toEqual(['Lonely Song']);
    // Directly below the music folder there is no grandparent folder to name the artist after.
    expect(index.artists.map((a) => a.name)).toEqual(['Unknown Artist']);
  });

  it('keeps the tracks of a music folder that has gone missing (an unmounted disk), and says so', async () => {
    const disk = path.join(work, 'Aurora Lane');
    const dirs = [path.join(work, 'untagged'), disk];
    const first = await scanLibrary(dirs, EMPTY);
    expect(first.index.tracks).toHaveLength(7);
    await rm(disk, { recursive: true });

    const second = await scanLibrary(dirs, first.index);
    expect(second.index).toEqual(first.index);
    expect(second.progress).toMatchObject({ removed: 0, added: 0, updated: 0 });
    expect(second.progress.errors).toEqual([{ path: disk, reason: expect.stringMatching(/missing/) }]);
  });
});
