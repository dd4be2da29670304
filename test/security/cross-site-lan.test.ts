import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS, signIn } from '../e2e/browser.js';
import { fakeScanner, makeLibrary } from '../factories/library.js';
import { makeUser, type TestUser } from '../factories/users.js';
import { scrobblerKey } from '../history/support.js';
import { useTestServer } from '../support/server.js';

/**
 * Cross-site writes on a home network. Over plain http to a LAN name, Chromium sends neither
 * `Origin` nor `Sec-Fetch-Site` with an `<img>` (it does to localhost, a "potentially trustworthy"
 * origin), so a page on another name could star, scrobble and delete playlists through a Subsonic
 * URL that carries a member's credentials. Chromium here resolves `music.lan` and `evil.lan` to
 * 127.0.0.1: the foreign page on evil.lan must change nothing, the settings page on music.lan keeps
 * working.
 */
const t = useTestServer({
  config: { allowedHosts: ['music.lan'] },
  scanner: fakeScanner(
    makeLibrary({ artists: [{ id: 'ar1' }], albums: [{ id: 'al1' }], tracks: [{ id: 't1' }, { id: 't2' }] }),
  ),
});
let user: TestUser;
let key: string;
let playlistId: string;
let evil: Server;
let evilPage = '';
let profile: string;
let browser: BrowserContext;
let music: string;

/** A Subsonic call with the member's API key, as a player makes it (no Referer, no Origin). */
async function subsonic(method: string, query = ''): Promise<Record<string, unknown>> {
  const response = await fetch(`${t.url}/rest/${method}?apiKey=${key}&f=json&v=1.16.1&c=test${query}`);
  const body = (await response.json()) as { 'subsonic-response': Record<string, unknown> };
  return body['subsonic-response'];
}

beforeAll(async () => {
  user = await makeUser(t);
  key = await scrobblerKey(t, user);
  const created = await subsonic('createPlaylist', '&name=Kept&songId=t1');
  playlistId = (created.playlist as { id: string }).id;
  music = `http://music.lan:${new URL(t.url).port}`;
  evil = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(evilPage));
  await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
  profile = await mkdtemp(join(tmpdir(), 'melon-lan-profile-'));
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_ARGS, '--host-resolver-rules=MAP music.lan 127.0.0.1, MAP evil.lan 127.0.0.1'],
  });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  evil?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
});

const WRITES = [
  'star?id=t1',
  'setRating?id=t1&rating=5',
  'scrobble?id=t1&submission=true',
  'createPlaylist?name=Evil&songId=t2',
  `updatePlaylist?playlistId=PLAYLIST&name=Renamed`,
  `deletePlaylist?id=PLAYLIST`,
  'savePlayQueue?id=t2&current=t2',
];

it('a page on another LAN name cannot star, scrobble, rate or change playlists and play queues through <img>', async () => {
  const urls = WRITES.map(
    (write) => `${music}/rest/${write.replace('PLAYLIST', playlistId)}&apiKey=${key}&v=1.16.1&c=evil&f=json`,
  );
  evilPage = `<!doctype html><body>${urls.map((url) => `<img src="${url}">`).join('')}
    <script>
      // A scrobble as a no-cors fetch: the browser drops the Authorization header it cannot send.
      window.lb = fetch('${music}/listenbrainz/1/submit-listens', {
        method: 'POST', mode: 'no-cors', headers: { Authorization: 'Token ${key}' },
        body: JSON.stringify({ listen_type: 'single', payload: [{ listened_at: 1700000000,
          track_metadata: { artist_name: 'Artist ar1', track_name: 'Track t1' } }] }),
      }).then(() => 'sent', () => 'failed');
    </script></body>`;
  const page = await browser.newPage();
  const sent: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/rest/')) sent.push(request.url());
  });
  await page.goto(`http://evil.lan:${(evil.address() as AddressInfo).port}/`);
  await page.waitForFunction(() => Array.from(document.images).every((image) => image.complete));
  await page.evaluate(() => (window as unknown as { lb: Promise<string> }).lb);
  await page.close();

  // Every write was sent, and refused (the server saw the foreign page only in its Referer).
  expect(sent).toHaveLength(WRITES.length);
  const refused = t.logs.filter((line) => line.includes('c=evil') && line.includes('status=403'));
  expect(refused).toHaveLength(WRITES.length);
  // And nothing changed.
  expect((await subsonic('getStarred2')).starred2).toEqual({ artist: [], album: [], song: [] });
  expect((await subsonic('getSong', '&id=t1')).song).not.toHaveProperty('userRating');
  const playlists = (await subsonic('getPlaylists')).playlists as {
    playlist: Array<{ name: string; owner: string }>;
  };
  // The member's own playlists; Melon's mixes (owner Melon) are listed beside them.
  const own = playlists.playlist.filter((playlist) => playlist.owner !== 'Melon');
  expect(own.map((playlist) => playlist.name)).toEqual(['Kept']);
  expect((await subsonic('getPlayQueue')).playQueue ?? {}).not.toHaveProperty('entry');
  const time = await t.call('/api/stats/listening-time', { token: user.token });
  expect(await time.json()).toMatchObject({ plays: 0 });
}, 60_000);

it('the settings page on music.lan keeps working, and a player (no Referer) still stars', async () => {
  const page = await browser.newPage();
  await signIn(page, music, user.username, user.password);
  // The page's own requests, with its own origin as Referer, are not foreign.
  const status = await page.evaluate(
    async ([k]) =>
      (await fetch(`/rest/star?id=t2&apiKey=${k}&v=1.16.1&c=page&f=json`, { referrerPolicy: 'unsafe-url' }))
        .status,
    [key],
  );
  expect(status).toBe(200);
  await page.close();
  expect(
    ((await subsonic('getStarred2')).starred2 as { song: Array<{ id: string }> }).song.map((s) => s.id),
  ).toEqual(['t2']);
  expect((await subsonic('star', '&id=t1')).status).toBe('ok');
}, 60_000);

it('native state-changing requests with a foreign Referer are refused too; reads and own-origin Referers are not', async () => {
  const login = (referer: string) =>
    fetch(`${t.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', referer },
      body: JSON.stringify({ username: user.username, password: user.password }),
    });
  expect((await login('http://evil.lan:8080/page')).status).toBe(403);
  expect((await login(`${t.url}/admin`)).status).toBe(200);
  const read = await fetch(`${t.url}/rest/getCoverArt?id=tr-t1&apiKey=${key}`, {
    headers: { referer: 'http://dashboard.lan/' },
  });
  expect(read.status).toBe(200);
});
