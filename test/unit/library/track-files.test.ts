import { realpath, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TrackRecord } from '../../../server/domain/library.js';
import { openTrackFile } from '../../../server/library/track-file.js';
import { audioFilesOnDisk, TrackFiles, type AudioFileIo } from '../../../server/library/track-files.js';
import { decodedAudioHash, tagsAndPictures } from '../../support/audio.js';
import { copyFixtureLibrary } from '../../support/fixture-library.js';

function trackAt(file: string): TrackRecord {
  return {
    id: path.basename(file),
    path: file,
    size: 0,
    mtimeMs: 0,
    name: path.basename(file),
    albumId: null,
    artistIds: [],
    genres: [],
    durationMs: 0,
    trackNumber: null,
    discNumber: null,
    year: null,
    format: path.extname(file).slice(1),
    artwork: [],
  };
}

/** A disk whose edits end only when the test says so; an edit is named `<file name>#<pos>`. */
function heldEdits() {
  const started: string[] = [];
  const running = new Map<string, { finish: () => void; fail: (error: Error) => void }>();
  const io: AudioFileIo = {
    removePicture: (track, pos) =>
      new Promise<TrackRecord>((resolve, reject) => {
        const name = `${path.basename(track.path)}#${pos}`;
        started.push(name);
        running.set(name, { finish: () => resolve(track), fail: reject });
      }),
    reread: (track) => Promise.resolve({ ...track, mtimeMs: 1 }),
  };
  const edit = (name: string) => {
    const held = running.get(name);
    if (!held) throw new Error(`${name} has not started`);
    return held;
  };
  return { io, started, edit };
}

/** Lets every promise callback that can run now run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

const a = trackAt(path.resolve('music', 'a.mp3'));
const b = trackAt(path.resolve('music', 'b.mp3'));

/** Two picture removals asked for on a.mp3 at once, held on a disk of held edits. */
async function twoEditsOfA() {
  const disk = heldEdits();
  const files = new TrackFiles(disk.io);
  const first = files.removePicture(a, 0);
  const second = files.removePicture(a, 1);
  await settle();
  return { disk, first, second };
}

describe('TrackFiles', () => {
  it('runs the edits of one path one after another, and returns the re-read track', async () => {
    const { disk, first, second } = await twoEditsOfA();
    expect(disk.started).toEqual(['a.mp3#0']);
    disk.edit('a.mp3#0').finish();
    await expect(first).resolves.toEqual({ ...a, mtimeMs: 1 });
    await settle();
    expect(disk.started).toEqual(['a.mp3#0', 'a.mp3#1']);
    disk.edit('a.mp3#1').finish();
    await expect(second).resolves.toEqual({ ...a, mtimeMs: 1 });
  });

  it('starts the next edit of a path after one that failed, and rejects with its error', async () => {
    const { disk, first, second } = await twoEditsOfA();
    disk.edit('a.mp3#0').fail(new Error('disk full'));
    await expect(first).rejects.toThrow('disk full');
    await settle();
    expect(disk.started).toEqual(['a.mp3#0', 'a.mp3#1']);
    disk.edit('a.mp3#1').finish();
    await expect(second).resolves.toMatchObject({ id: 'a.mp3' });
  });

  it('runs edits of different paths at the same time', async () => {
    const disk = heldEdits();
    const files = new TrackFiles(disk.io);
    const edits = [files.removePicture(a, 0), files.removePicture(b, 0)];
    await settle();
    expect(disk.started).toEqual(['a.mp3#0', 'b.mp3#0']);
    disk.edit('b.mp3#0').finish();
    disk.edit('a.mp3#0').finish();
    await expect(Promise.all(edits)).resolves.toHaveLength(2);
  });

  it('waitForEdits resolves only after every queued edit, and at once when there is none', async () => {
    const disk = heldEdits();
    const files = new TrackFiles(disk.io);
    await files.waitForEdits();
    const edits = Promise.allSettled([
      files.removePicture(a, 0),
      files.removePicture(a, 1),
      files.removePicture(b, 0),
    ]);
    let idle = false;
    const waiting = files.waitForEdits().then(() => {
      idle = true;
    });
    await settle();
    disk.edit('a.mp3#0').fail(new Error('not writable'));
    disk.edit('b.mp3#0').finish();
    await settle();
    expect(idle).toBe(false);
    disk.edit('a.mp3#1').finish();
    await waiting;
    expect(idle).toBe(true);
    expect(disk.started).toEqual(['a.mp3#0', 'b.mp3#0', 'a.mp3#1']);
    await edits;
  });
});

describe('TrackFiles on real files', () => {
  let scratch: string | undefined;

  afterAll(async () => {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('applies two concurrent removals of the same file one after the other', async () => {
    const { library } = await copyFixtureLibrary('melon-track-files-');
    scratch = path.dirname(library);
    const file = path.join(library, 'Aurora Lane', 'Fixture Album', '05 - Tone OPUS.opus');
    const audio = await decodedAudioHash(file);
    const root = await realpath(library);
    const files = new TrackFiles(audioFilesOnDisk((track) => openTrackFile(track.path, [root], null)));
    const [, last] = await Promise.all([
      files.removePicture(trackAt(file), 0),
      files.removePicture(trackAt(file), 0),
    ]);
    await files.waitForEdits();
    const after = await tagsAndPictures(file);
    expect(after.pictures).toEqual([]);
    expect(after.tags.title).toBe('Tone OPUS');
    expect(await decodedAudioHash(file)).toBe(audio);
    expect(last.artwork).toEqual([]);
  });
});
