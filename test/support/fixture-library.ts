import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

/** The track with this exact name; throws so a missing fixture track fails loudly, not as undefined. */
export function trackNamed(index: LibraryIndex, name: string): TrackRecord {
  const track = index.tracks.find((t) => t.name === name);
  if (!track) throw new Error(`no track named ${name}`);
  return track;
}
