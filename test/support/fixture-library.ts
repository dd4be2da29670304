import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { writeTone } from './audio.js';
import { ensureFixtures } from '../../scripts/make-fixtures.js';
import type { LibraryIndex, TrackRecord } from '../../server/domain/library.js';

export interface FixtureCopy {
  /** A private copy of the fixture library (tests may rewrite its files). */
  library: string;
  /** The fixture images (cover.png, back.jpg, photo.webp, not-an-image.png), read-only. */
  images: string;
}

/** Generates the fixtures if needed and copies the library into a fresh temp folder. */
export async function copyFixtureLibrary(prefix = 'melon-lib-'): Promise<FixtureCopy> {
  const root = await ensureFixtures();
  const library = join(await mkdtemp(join(tmpdir(), prefix)), 'library');
  await cp(join(root, 'library'), library, { recursive: true });
  return { library, images: join(root, 'images') };
}

/**
 * A copy of the fixture library for a whole test file, filled in before its first test and removed
 * after its last (after a server that a later hook of the file started has stopped: after-hooks run
 * in reverse).
 */
export function useFixtureLibraryCopy(prefix: string): FixtureCopy {
  const copy: FixtureCopy = { library: '', images: '' };
  beforeAll(async () => {
    Object.assign(copy, await copyFixtureLibrary(prefix));
  });
  afterAll(() => copy.library && rm(dirname(copy.library), { recursive: true, force: true }));
  return copy;
}

/**
 * Adds `Long/Long Tone.flac` to a library: a tone of `seconds`, long enough that an encode of it is
 * still running when a client reads its first bytes or leaves.
 */
export async function addLongTone(library: string, seconds: number): Promise<void> {
  await mkdir(join(library, 'Long'), { recursive: true });
  await writeTone(join(library, 'Long', 'Long Tone.flac'), { seconds, tags: { title: 'Long Tone' } });
}

/** The track with this exact name; throws so a missing fixture track fails loudly, not as undefined. */
export function trackNamed(index: LibraryIndex, name: string): TrackRecord {
  const track = index.tracks.find((t) => t.name === name);
  if (!track) throw new Error(`no track named ${name}`);
  return track;
}
