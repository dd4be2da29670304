import { access, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeScanner, oneAlbumLibrary } from '../factories/library.js';
import { makeUser, type TestUser } from '../factories/users.js';
import { START_WAIT_MS } from '../../server/http/starting.js';
import { ADMIN_PASSWORD, ADMIN_USER, postJson, startTestServer, type TestServer } from '../support/server.js';

/**
 * Starting at once (docs/API.md, Starting): the server listens while the saved play index loads in
 * the background, answers health and sign-ins meanwhile, holds what needs the plays, and refuses it
 * with 503 `starting` once it has waited long enough. The test holds the load through the server's
 * load turn, so "during the load" is certain on any machine.
 */
const library = oneAlbumLibrary(2);

/** A request that needs the plays waits this long during the load before it is refused. */
const WAIT_MS = 1_000;

type TopTracks = { id: string; plays: number }[];

describe('a server starting over a saved play index', () => {
  let t: TestServer;
  let member: TestUser;
  let appKey: string;
  let before: TopTracks;
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });

  beforeAll(async () => {
    const first = await startTestServer({ scanner: fakeScanner(library) });
    member = await makeUser(first);
    for (const id of ['t1', 't1', 't2'])
      expect((await postJson(first, '/api/stats/log-play', { id }, member.token)).status).toBe(200);
    const made = await postJson(first, '/api/users/api-keys/create', { name: 'Phone' }, member.token);
    appKey = ((await made.json()) as { key: string }).key;
    before = (await (await first.call('/api/stats/top-tracks', { token: member.token })).json()) as TopTracks;
    // A clean stop saves the play index: the next start loads it in the background.
    await first.stop(true);
    t = await startTestServer({
      scanner: fakeScanner(library),
      dataDir: first.dataDir,
      clock: first.clock,
      loadTurn: () => held,
      startWaitMs: WAIT_MS,
      whileStarting: true,
    });
  });
  afterAll(async () => {
    release();
    await t?.stop();
  });

  it('says it is starting, and signs in through each API, while the plays still load', async () => {
    const health = await t.call('/api/health');
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'starting' });

    const login = await postJson(t, '/auth/login', { username: member.username, password: member.password });
    expect(login.status).toBe(200);
    expect(await login.json()).toMatchObject({ token: expect.any(String) });

    const ping = await fetch(
      `${t.url}/rest/ping.view?v=1.16.1&c=test&f=json&u=${member.username}&p=${encodeURIComponent(member.password)}`,
    );
    expect((await ping.json()) as unknown).toMatchObject({ 'subsonic-response': { status: 'ok' } });

    const validate = await fetch(`${t.url}/listenbrainz/1/validate-token`, {
      headers: { authorization: `Token ${appKey}` },
    });
    expect(await validate.json()).toMatchObject({ valid: true, user_name: member.username });
  });

  it('refuses a statistics read with 503 starting and Retry-After once it waited for the load', async () => {
    const started = Date.now();
    const top = await t.call('/api/stats/top-tracks', { token: member.token });
    expect(Date.now() - started).toBeGreaterThanOrEqual(WAIT_MS - 50);
    expect(top.status).toBe(503);
    expect(top.headers.get('retry-after')).toBe('5');
    expect(await top.json()).toMatchObject({ status: 503, code: 'starting' });
  });

  it("refuses in each API's own shape: Subsonic a failed answer, ListenBrainz its error JSON", async () => {
    const albums = await fetch(
      `${t.url}/rest/getAlbumList2.view?v=1.16.1&c=test&f=json&type=frequent&apiKey=${appKey}`,
    );
    expect(albums.status).toBe(200);
    expect(albums.headers.get('retry-after')).toBe('5');
    expect(await albums.json()).toMatchObject({
      'subsonic-response': {
        status: 'failed',
        error: { code: 0, message: expect.stringMatching(/starting/) },
      },
    });

    const submit = await fetch(`${t.url}/listenbrainz/1/submit-listens`, {
      method: 'POST',
      headers: { authorization: `Token ${appKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        listen_type: 'single',
        payload: [{ listened_at: 1_700_000_000, track_metadata: { artist_name: 'A', track_name: 'B' } }],
      }),
    });
    expect(submit.status).toBe(503);
    expect(submit.headers.get('retry-after')).toBe('5');
    expect(await submit.json()).toMatchObject({ code: 503 });
  });

  it('holds a log-play and a library read posted during the load until the library and the plays are in, and loses nothing', async () => {
    const posted = postJson(t, '/api/stats/log-play', { id: 't2' }, member.token);
    const tracks = t.call('/api/tracks', { token: member.token });
    // Both are waiting at the gate; the load goes on.
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    const logged = await posted;
    expect(logged.status).toBe(200);
    // The library was read after the server listened: the read sees all of it.
    expect(await (await tracks).json()).toMatchObject({ total: 2 });
    await t.server.started;

    expect(await (await t.call('/api/health')).json()).toMatchObject({ status: 'ok' });
    const after = (await (
      await t.call('/api/stats/top-tracks', { token: member.token })
    ).json()) as TopTracks;
    const plays = (list: TopTracks) => Object.fromEntries(list.map((item) => [item.id, item.plays]));
    expect(plays(before)).toEqual({ t1: 2, t2: 1 });
    expect(plays(after)).toEqual({ t1: 2, t2: 2 });

    t = await t.restart();
    const again = (await (
      await t.call('/api/stats/top-tracks', { token: member.token })
    ).json()) as TopTracks;
    expect(plays(again)).toEqual({ t1: 2, t2: 2 });
  });
});

describe('a server starting over a saved play index that turns out not to fit its log', () => {
  let t: TestServer;
  let member: TestUser;
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });

  beforeAll(async () => {
    const first = await startTestServer({ scanner: fakeScanner(library) });
    member = await makeUser(first);
    for (const id of ['t1', 't2', 't2', 't2'])
      expect((await postJson(first, '/api/stats/log-play', { id }, member.token)).status).toBe(200);
    await first.stop(true);
    // Whole segments, each row damaged: the last row's user is one the saved tables never named.
    // Only a check of every row finds it, and that check runs once the server listens.
    const path = join(first.dataDir, 'plays.index');
    const bytes = await readFile(path);
    bytes.writeUInt32LE(0xffff_ffff, bytes.length - 4 - 28 + 8);
    await writeFile(path, bytes);
    t = await startTestServer({
      scanner: fakeScanner(library),
      dataDir: first.dataDir,
      clock: first.clock,
      loadTurn: () => held,
      startWaitMs: 10_000,
      whileStarting: true,
    });
  });
  afterAll(async () => {
    release();
    await t?.stop();
  });

  it('answers health and sign-ins at once, then every statistic as the log has it after a rebuild', async () => {
    expect(await (await t.call('/api/health')).json()).toMatchObject({ status: 'starting' });
    const login = await postJson(t, '/auth/login', { username: member.username, password: member.password });
    expect(login.status).toBe(200);

    const top = t.call('/api/stats/top-tracks', { token: member.token });
    release();
    const answer = await top;
    expect(answer.status).toBe(200);
    const plays = (list: TopTracks) => Object.fromEntries(list.map((item) => [item.id, item.plays]));
    expect(plays((await answer.json()) as TopTracks)).toEqual({ t1: 1, t2: 3 });
    expect(t.logs.join('\n')).toMatch(/the saved play index is damaged; rebuilding it from the play log/);

    // Saved afresh: the next start loads it, with the same answer.
    await t.server.started;
    t = await t.restart();
    const again = await t.call('/api/stats/top-tracks', { token: member.token });
    expect(plays((await again.json()) as TopTracks)).toEqual({ t1: 1, t2: 3 });
    expect(t.logs.join('\n')).not.toMatch(/rebuilding it/);
  });
});

describe('a server whose library cannot be read', () => {
  let t: TestServer;

  beforeAll(async () => {
    const first = await startTestServer({ scanner: fakeScanner(library) });
    await first.stop(true);
    await writeFile(join(first.dataDir, 'library.json'), '{"schemaVersion":1,"tracks":[');
    t = await startTestServer({
      scanner: fakeScanner(library),
      dataDir: first.dataDir,
      clock: first.clock,
      whileStarting: true,
    });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('listens all the same: health says starting, sign-ins are answered, library reads refused at once', async () => {
    const login = await postJson(t, '/auth/login', { username: ADMIN_USER, password: ADMIN_PASSWORD });
    expect(login.status).toBe(200);
    await expect.poll(() => t.logs.join('\n')).toMatch(/could not read the library/);
    expect(await (await t.call('/api/health')).json()).toMatchObject({ status: 'starting' });
    const started = Date.now();
    const tracks = await t.call('/api/tracks', { token: t.adminToken });
    expect(Date.now() - started).toBeLessThan(START_WAIT_MS);
    expect(tracks.status).toBe(503);
    expect(await tracks.json()).toMatchObject({ code: 'starting' });
  });
});

describe('a server closed before it read its library', () => {
  it('never reads or writes library.json once it has let go of the data folder', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const t = await startTestServer({ loadTurn: () => held, whileStarting: true });
    const file = join(t.dataDir, 'library.json');
    const present = () =>
      access(file).then(
        () => true,
        () => false,
      );
    expect(await present()).toBe(false);
    await t.server.close();
    release();
    // What the held read would do next: a first library.json, written as the read opens it.
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await present()).toBe(false);
    expect(t.logs.join('\n')).not.toMatch(/could not read the library/);
  });
});
