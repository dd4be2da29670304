import { copyFile, link, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureFixtures } from '../../scripts/make-fixtures.js';
import { makeUser } from '../factories/users.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { apiKeyFor } from '../subsonic/support.js';

/**
 * Lyrics come from the tags and from a `.lrc` file beside a track. A member who writes to the music
 * folder names a link to Melon's secret key (or a hard link to it) `song.lrc`: the key must never come
 * back as lyrics. A real `.lrc` file still does.
 */
let t: TestServer;
let base: string;
let key: string;
let secret: string;
const ids = new Map<string, string>();

beforeAll(async () => {
  const fixtures = await ensureFixtures();
  base = await mkdtemp(join(tmpdir(), 'melon-lrc-'));
  const music = join(base, 'music', 'Album');
  await mkdir(music, { recursive: true });
  const mp3 = join(fixtures, 'library', 'Aurora Lane', 'Fixture Album', '01 - Tone MP3.mp3');
  for (const name of ['linked', 'hard', 'real']) await copyFile(mp3, join(music, `${name}.mp3`));
  t = await startTestServer({ config: { libraryDirs: [join(base, 'music')] } });
  const secretPath = join(t.dataDir, 'secret.key');
  secret = (await readFile(secretPath, 'utf8')).trim();
  await symlink(secretPath, join(music, 'linked.lrc'));
  await link(secretPath, join(music, 'hard.lrc'));
  await writeFile(join(music, 'real.lrc'), '[00:01.00]la la la\n');
  key = await apiKeyFor(t, (await makeUser(t, { role: 'Pass' })).token, 'Speaker');
  const tracks = (await (await t.call('/api/tracks', { token: t.adminToken })).json()) as {
    items: Array<{ id: string; path: string }>;
  };
  for (const track of tracks.items) ids.set(track.path.split('/').pop()!, track.id);
}, 60_000);
afterAll(async () => {
  await t?.stop();
  await rm(base, { recursive: true, force: true });
});

const lyricsOf = async (name: string) => {
  const response = await fetch(
    `${t.url}/rest/getLyricsBySongId?apiKey=${key}&c=test&v=1.16.1&f=json&id=${ids.get(name)}`,
  );
  return response.text();
};

describe('a .lrc file beside a track', () => {
  it('that links to the secret key, or is a hard link to it, gives no lyrics', async () => {
    for (const name of ['linked.mp3', 'hard.mp3']) {
      const body = await lyricsOf(name);
      expect(body).toContain('"status":"ok"');
      expect(body).not.toContain(secret.slice(0, 16));
    }
  });

  it('that is a real file gives its lyrics', async () => {
    expect(await lyricsOf('real.mp3')).toContain('la la la');
  });
});
