import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmod,
  copyFile,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  writeFile,
} from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureFixtures } from '../../../scripts/make-fixtures.js';
import { PictureEditError, removePicture } from '../../../server/library/picture-editor.js';
import { openTrackFile } from '../../../server/library/track-file.js';
import { decodedAudioHash, tagsAndPictures } from '../../support/audio.js';

const run = promisify(execFile);
const EDITABLE = ['MP3', 'FLAC', 'M4A', 'OGG', 'OPUS'];

let fixtures: string;
let work: string;
let cover: Buffer;
let back: Buffer;

beforeAll(async () => {
  fixtures = await ensureFixtures();
  work = await mkdtemp(path.join(os.tmpdir(), 'melon-pictures-'));
  cover = await readFile(path.join(fixtures, 'images', 'cover.png'));
  back = await readFile(path.join(fixtures, 'images', 'back.jpg'));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

let copies = 0;

/** A fresh copy of one fixture track, alone in its own folder. */
async function freshCopy(fmt: string): Promise<string> {
  const dir = path.join(work, `copy-${copies++}`);
  await mkdir(dir);
  const name = `0${['MP3', 'FLAC', 'M4A', 'OGG', 'OPUS', 'WAV'].indexOf(fmt) + 1} - Tone ${fmt}.${fmt.toLowerCase()}`;
  const target = path.join(dir, name);
  await copyFile(path.join(fixtures, 'library', 'Aurora Lane', 'Fixture Album', name), target);
  return target;
}

async function expectRejection(promise: Promise<unknown>, reason: string): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(PictureEditError);
  expect((error as PictureEditError).reason).toBe(reason);
}

describe.each(EDITABLE)('removePicture on %s', (fmt) => {
  it.each([
    [0, 'back'],
    [1, 'cover'],
  ])('removes position %i and keeps the %s picture, the tags and the audio', async (pos, kept) => {
    const file = await freshCopy(fmt);
    const before = await tagsAndPictures(file);
    const audio = await decodedAudioHash(file);
    expect(before.pictures).toHaveLength(2);

    await removeFrom(file, pos);

    const after = await tagsAndPictures(file);
    // The kept picture: the same image, with the same format and picture type as before.
    expect(after.pictures).toEqual([before.pictures[1 - pos]]);
    expect(after.pictures[0]!.sha256).toBe(
      createHash('sha256')
        .update(kept === 'back' ? back : cover)
        .digest('hex'),
    );
    expect(after.tags).toEqual(before.tags);
    expect(after.tagTypes).toEqual(before.tagTypes); // e.g. MP3 stays ID3v2.3 and gains no ID3v1
    expect(await decodedAudioHash(file)).toBe(audio);
    expect(await readdir(path.dirname(file))).toEqual([path.basename(file)]); // no temp file left
  });

  it('rejects a position past the end and leaves the file byte-identical', async () => {
    const file = await freshCopy(fmt);
    const original = await readFile(file);
    await expectRejection(removeFrom(file, 2), 'position_out_of_range');
    expect(await readFile(file)).toEqual(original);
    expect(await readdir(path.dirname(file))).toEqual([path.basename(file)]);
  });
});

describe('removePicture', () => {
  it('refuses WAV files and negative or fractional positions', async () => {
    const wav = await freshCopy('WAV');
    await expectRejection(removeFrom(wav, 0), 'unsupported_format');
    const mp3 = await freshCopy('MP3');
    await expectRejection(removeFrom(mp3, -1), 'position_out_of_range');
    await expectRejection(removeFrom(mp3, 0.5), 'position_out_of_range');
  });

  it('never gets a missing file: opening it is refused first', async () => {
    await expect(removeFrom(path.join(work, 'missing.mp3'), 0)).rejects.toMatchObject({ reason: 'missing' });
  });

  it('reports a folder it cannot write to as not_writable and keeps the file', async (ctx) => {
    const file = await freshCopy('FLAC');
    const dir = path.dirname(file);
    const original = await readFile(file);
    const undo = await makeReadOnly(dir);
    if (!undo) {
      ctx.skip(); // neither chmod nor chattr can stop this user from writing
      return;
    }
    try {
      await expectRejection(removeFrom(file, 0), 'not_writable');
    } finally {
      await undo();
    }
    expect(await readFile(file)).toEqual(original);
    expect(await readdir(dir)).toEqual([path.basename(file)]);
  });
});

/**
 * Makes `dir` unwritable: chmod is enough for a normal user; root ignores it, so then the directory is
 * made immutable with chattr. Returns how to undo it, or undefined when neither works here.
 */
async function makeReadOnly(dir: string): Promise<(() => Promise<void>) | undefined> {
  await chmod(dir, 0o555);
  if (!(await canWrite(dir))) return () => chmod(dir, 0o755);
  await chmod(dir, 0o755);
  try {
    await run('chattr', ['+i', dir]);
  } catch {
    return undefined;
  }
  const undo = async (): Promise<void> => {
    await run('chattr', ['-i', dir]);
  };
  if (!(await canWrite(dir))) return undo;
  await undo();
  return undefined;
}

async function canWrite(dir: string): Promise<boolean> {
  const probe = path.join(dir, '.probe');
  try {
    await writeFile(probe, 'x');
    await rm(probe);
    return true;
  } catch {
    return false;
  }
}

/** Opens `file` as the server does (checked, inside the scratch folder) and removes picture `pos`. */
async function removeFrom(file: string, pos: number): Promise<void> {
  const opened = await openTrackFile(file, [await realpath(work)], null);
  try {
    await removePicture(opened, pos);
  } finally {
    await opened.handle.close();
  }
}
