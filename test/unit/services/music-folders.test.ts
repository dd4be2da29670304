import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pathInFolders } from '../../../server/services/music-folders.js';
import { propertyRuns } from '../../support/property-runs.js';

/** What pathInFolders answered by asking path.relative for every path. */
function byRelative(dirs: readonly string[], file: string): string {
  for (const dir of dirs) {
    const inside = path.relative(dir, file);
    if (inside && !inside.startsWith('..') && !path.isAbsolute(inside)) return inside.split('\\').join('/');
  }
  return file.split(/[\\/]/).slice(-1)[0] ?? '';
}

const segment = fc.constantFrom('Music', 'a', 'b c', '.', '..', '', '..x', 'x..', '.hidden', 'é', 'a\\b');
const plainPath = fc.array(segment, { minLength: 0, maxLength: 5 }).map((parts) => parts.join('/'));

describe("a track's path inside its music folder", () => {
  it('is the path after the folder, as a player shows it', () => {
    expect(pathInFolders(['/srv/music'], '/srv/music/Artist/Album/01 Song.mp3')).toBe(
      'Artist/Album/01 Song.mp3',
    );
    expect(pathInFolders(['/srv/other', '/srv/music'], '/srv/music/a.mp3')).toBe('a.mp3');
    expect(pathInFolders(['/srv/music'], '/srv/musicals/a.mp3')).toBe('a.mp3');
    expect(pathInFolders(['/srv/music/'], '/srv/music/x/../y/a.mp3')).toBe('y/a.mp3');
  });

  it('is what path.relative says for any folder and file, plain or not', () => {
    fc.assert(
      fc.property(
        fc.array(plainPath, { minLength: 1, maxLength: 3 }),
        plainPath,
        fc.boolean(),
        (dirs, rest, under) => {
          const folders = dirs.map((dir) => `/${dir}`);
          const file = under ? `${folders[0]}/${rest}` : `/${rest}`;
          expect(pathInFolders(folders, file)).toBe(byRelative(folders, file));
        },
      ),
      { seed: 1127, numRuns: propertyRuns(2000) },
    );
  });
});
