import { copyFile, mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureFixtures, FORMATS_DIR } from '../../scripts/make-fixtures.js';
import { OUTSIDE_LINK_REASON } from '../../server/library/folder-walk.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * A music folder is what the household shares. A symlink inside it that leads elsewhere (to `/`,
 * another user's home, the data folder) must not put those files in the library, where every
 * member could stream them: such links are not followed and are named in the scan's problems.
 * Links that stay inside a music folder are followed as before.
 */
let t: TestServer;
let base: string;
let music: string;

beforeAll(async () => {
  const formats = join(await ensureFixtures(), FORMATS_DIR);
  base = await mkdtemp(join(tmpdir(), 'melon-links-'));
  music = join(base, 'music');
  const outside = join(base, 'elsewhere');
  await mkdir(join(music, 'Album'), { recursive: true });
  await mkdir(join(outside, 'private'), { recursive: true });
  await copyFile(join(formats, 'flac.flac'), join(music, 'Album', 'inside.flac'));
  await copyFile(join(formats, 'mp3-cbr.mp3'), join(outside, 'secret.mp3'));
  await copyFile(join(formats, 'aac.m4a'), join(outside, 'private', 'diary.m4a'));
  await symlink(join(outside, 'secret.mp3'), join(music, 'Album', 'link-to-file.mp3'));
  await symlink(join(outside, 'private'), join(music, 'link-to-folder'));
  await symlink(join(music, 'Album', 'inside.flac'), join(music, 'inside-link.flac'));
  t = await startTestServer({ config: { libraryDirs: [music] } });
});
afterAll(async () => {
  await t.stop();
  await rm(base, { recursive: true, force: true });
});

describe('symlinks in a music folder', () => {
  it('does not follow a link to a file or a folder outside the music folders', async () => {
    const tracks = (await (await t.call('/api/tracks', { token: t.adminToken })).json()) as {
      items: Array<{ path: string }>;
    };
    const paths = tracks.items.map((track) => track.path).sort();
    expect(paths.some((p) => p.includes('secret') || p.includes('diary'))).toBe(false);
    // A link that stays inside is followed.
    expect(paths).toEqual([join(music, 'Album', 'inside.flac'), join(music, 'inside-link.flac')]);
  });

  it('names the links it did not follow in the scan problems, and logs each', async () => {
    const status = (await (await t.call('/api/library/scan', { token: t.adminToken })).json()) as {
      problems: Array<{ path: string; reason: string }>;
      problemCount: number;
    };
    expect(status.problems).toEqual([
      { path: join(music, 'Album', 'link-to-file.mp3'), reason: OUTSIDE_LINK_REASON },
      { path: join(music, 'link-to-folder'), reason: OUTSIDE_LINK_REASON },
    ]);
    expect(status.problemCount).toBe(2);
    expect(t.logs.filter((line) => line.includes('WARN not in the library'))).toHaveLength(2);
  });
});
