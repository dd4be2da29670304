import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeScanner, makeLibrary } from '../factories/library.js';
import { makeUser, type TestUser } from '../factories/users.js';
import { writeLibraryFile } from '../../server/store/library-file.js';
import { postJson, startTestServer, type TestServer } from '../support/server.js';

/**
 * Statistics before the library (docs/ARCHITECTURE.md, Start): a start whose library.json is the
 * one the plays were last counted for answers the statistics from the plays and the counting saved
 * with them, before it reads the library; any other start reads the library first. The test holds
 * the library's read through the server's library turn, so "before it is read" is certain.
 */

/** The library the plays were logged against: two tracks by one artist, on one album. */
const logged = makeLibrary({
  artists: [{ id: 'ar1', name: 'The Band' }],
  albums: [{ id: 'al1', name: 'First Album', artistIds: ['ar1'] }],
  tracks: [
    { id: 't1', name: 'Opening', artistIds: ['ar1'] },
    { id: 't2', name: 'Closing', artistIds: ['ar1'] },
  ],
});

/** The library after a rescan: t2 renamed and credited to a second artist, the album renamed. */
const rescanned = makeLibrary({
  artists: [
    { id: 'ar1', name: 'The Band' },
    { id: 'ar2', name: 'The Singer' },
  ],
  albums: [{ id: 'al1', name: 'First Album (Remastered)', artistIds: ['ar1'] }],
  tracks: [
    { id: 't1', name: 'Opening', artistIds: ['ar1'] },
    { id: 't2', name: 'Closing (Live)', artistIds: ['ar2'] },
  ],
});

const READS = ['top-tracks', 'top-artists', 'top-albums', 'recent-tracks'];

type Answers = Record<string, unknown>;

async function answers(t: TestServer, token: string): Promise<Answers> {
  const out: Answers = {};
  for (const read of READS) {
    const response = await t.call(`/api/stats/${read}`, { token });
    expect(response.status, read).toBe(200);
    out[read] = await response.json();
  }
  return out;
}

/** A data folder where a member logged plays of `ids` over the logged library, then Melon stopped. */
async function stoppedAfterPlays(ids: string[]): Promise<{ first: TestServer; member: TestUser }> {
  const first = await startTestServer({ scanner: fakeScanner(logged) });
  const member = await makeUser(first);
  for (const id of ids)
    expect((await postJson(first, '/api/stats/log-play', { id }, member.token)).status).toBe(200);
  await first.stop(true);
  return { first, member };
}

/** A second start of `first`'s folder, its library's read held by `library`. */
function restartHeld(first: TestServer, library: ReturnType<typeof held>, scanned: typeof logged) {
  return startTestServer({
    scanner: fakeScanner(scanned),
    dataDir: first.dataDir,
    clock: first.clock,
    libraryTurn: library.turn,
    startWaitMs: 300,
    whileStarting: true,
  });
}

function held(): { turn: () => Promise<void>; release: () => void } {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { turn: () => gate, release };
}

/** Checks that `t` holds the statistics until its library (held by `library`) is read, then reads it. */
async function readsLibraryFirst(t: TestServer, library: ReturnType<typeof held>, token: string) {
  expect((await t.call('/api/stats/top-tracks', { token })).status).toBe(503);
  library.release();
  await t.server.started;
}

interface HeldRestart {
  t: TestServer;
  member: TestUser;
  library: ReturnType<typeof held>;
}

/**
 * Sets up the enclosing describe block: a member's plays of `ids` logged and Melon stopped, `change`
 * made to its data folder, then a second start whose library's read is held.
 */
function restartedAfter(
  ids: string[],
  scanned: typeof logged,
  change: (dataDir: string) => Promise<unknown>,
): HeldRestart {
  const context = { library: held() } as HeldRestart;
  beforeAll(async () => {
    const stopped = await stoppedAfterPlays(ids);
    context.member = stopped.member;
    await change(stopped.first.dataDir);
    context.t = await restartHeld(stopped.first, context.library, scanned);
  });
  afterAll(async () => {
    context.library.release();
    await context.t?.stop();
  });
  return context;
}

describe('a start over plays counted for the library on disk', () => {
  let t: TestServer;
  let member: TestUser;
  let after: Answers;
  const library = held();

  beforeAll(async () => {
    const scanner = fakeScanner(logged);
    const first = await startTestServer({ scanner });
    member = await makeUser(first);
    for (const id of ['t1', 't2', 't2'])
      expect((await postJson(first, '/api/stats/log-play', { id }, member.token)).status).toBe(200);
    // The library changes after the plays: they count, and are named, as it now says.
    scanner.set(rescanned);
    expect((await first.call('/api/library/scan', { method: 'POST', token: first.adminToken })).status).toBe(
      202,
    );
    await first.server.services.library.waitForIdle();
    // Played again: logged with the new names, the older plays keep the old ones.
    expect((await postJson(first, '/api/stats/log-play', { id: 't2' }, member.token)).status).toBe(200);
    after = await answers(first, member.token);
    await first.stop(true);
    t = await startTestServer({
      scanner: fakeScanner(rescanned),
      dataDir: first.dataDir,
      clock: first.clock,
      libraryTurn: library.turn,
      whileStarting: true,
    });
  });
  afterAll(async () => {
    library.release();
    await t?.stop();
  });

  it('answers the statistics before library.json is read, named and counted as the library says', async () => {
    expect(after['top-artists']).toMatchObject([
      { id: 'ar2', name: 'The Singer', plays: 3 },
      { id: 'ar1', name: 'The Band', plays: 1 },
    ]);
    expect(after['top-tracks']).toMatchObject([{ id: 't2', name: 'Closing (Live)', plays: 3 }, { id: 't1' }]);
    // Every play of a track is named as the library names it, however it was logged.
    expect(after['recent-tracks']).toMatchObject(
      ['t2', 't2', 't2', 't1'].map((id) => ({
        track: { id, name: id === 't2' ? 'Closing (Live)' : 'Opening' },
      })),
    );
    expect(after['top-albums']).toMatchObject([{ id: 'al1', name: 'First Album (Remastered)' }]);

    expect(await answers(t, member.token)).toEqual(after);
    expect(t.server.store.library.index().tracks).toEqual([]);
    // The rest still waits for the library, and the server still says it is starting.
    expect(await (await t.call('/api/health')).json()).toMatchObject({ status: 'starting' });
    const tracks = t.call('/api/tracks', { token: member.token });
    library.release();
    expect(await (await tracks).json()).toMatchObject({ total: 2 });
    await t.server.started;
    expect(await answers(t, member.token)).toEqual(after);
  });

  it('lets through early exactly the statistics reads the route table marks', () => {
    const reads = t.server.routes.filter((route) => route.statsRead).map((r) => `${r.method} ${r.path}`);
    expect(reads).toEqual(
      [
        'listening-time',
        'household-facts',
        ...['tracks', 'albums', 'artists', 'genres'].map((kind) => `top-${kind}`),
        ...['tracks', 'albums', 'artists'].map((kind) => `recent-${kind}`),
        'activity',
        'members',
        'devices',
        'heatmap',
      ].map((read) => `GET /api/stats/${read}`),
    );
  });

  it('keeps the counting it started with when nothing changed until its stop, and starts from it again', async () => {
    await t.stop(true);
    const counting = join(t.dataDir, 'plays.counting');
    const made = await stat(counting);
    // A start whose scan never ends (a test's scanner): its library stays as it was read.
    t = await startTestServer({
      scanner: () => new Promise(() => undefined),
      dataDir: t.dataDir,
      clock: t.clock,
      whileStarting: true,
    });
    await t.server.started;
    await t.stop(true);
    expect((await stat(counting)).mtimeMs).toBe(made.mtimeMs);
    const next = held();
    t = await restartHeld(t, next, rescanned);
    expect(await answers(t, member.token)).toEqual(after);
    expect(t.server.store.library.index().tracks).toEqual([]);
    next.release();
  });
});

describe('a start over plays counted for another library', () => {
  // Changed while Melon was stopped (another copy of the data folder, a restore): a new stamp.
  const restart = restartedAfter(['t1', 't2', 't2'], rescanned, async (dataDir) => {
    await writeLibraryFile(join(dataDir, 'library.json'), rescanned);
  });

  it('reads the library first, then counts the plays as it says', async () => {
    const { t, member, library } = restart;
    const early = await t.call('/api/stats/top-artists', { token: member.token });
    expect(early.status).toBe(503);
    library.release();
    await t.server.started;
    const top = await t.call('/api/stats/top-artists', { token: member.token });
    expect(await top.json()).toMatchObject([
      { id: 'ar2', name: 'The Singer', plays: 2 },
      { id: 'ar1', name: 'The Band', plays: 1 },
    ]);
  });
});

describe('a start over a library.json edited by hand, its first line kept', () => {
  // The stamp is in the first line, which the edit keeps: only the file's size and time tell.
  const restart = restartedAfter(['t1', 't2'], logged, async (dataDir) => {
    const path = join(dataDir, 'library.json');
    const text = await readFile(path, 'utf8');
    expect(text).toContain('"name":"Closing"');
    await writeFile(path, text.replace('"name":"Closing"', '"name":"Closing (Edited)"'));
  });

  it('reads the library first, and names the plays as the edited file says', async () => {
    const { t, member, library } = restart;
    await readsLibraryFirst(t, library, member.token);
    const recent = await t.call('/api/stats/recent-tracks', { token: member.token });
    expect(await recent.json()).toMatchObject([{ track: { id: 't2', name: 'Closing (Edited)' } }, {}]);
  });
});

describe('a stop without the time to count the plays anew', () => {
  it('leaves no counting behind, and the next start reads the library first', async () => {
    const stopped = await stoppedAfterPlays(['t1']);
    const counting = join(stopped.first.dataDir, 'plays.counting');
    await stat(counting);
    // A play after the start: the counting it started from no longer fits.
    let t = await startTestServer({
      scanner: fakeScanner(logged),
      dataDir: stopped.first.dataDir,
      clock: stopped.first.clock,
      countingWithinMs: 0,
    });
    expect((await postJson(t, '/api/stats/log-play', { id: 't2' }, stopped.member.token)).status).toBe(200);
    await t.stop(true);
    await expect(stat(counting)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(t.logs.join('\n')).toMatch(/no time to save the play counting/);

    const library = held();
    t = await restartHeld(t, library, logged);
    await readsLibraryFirst(t, library, stopped.member.token);
    const top = await t.call('/api/stats/top-tracks', { token: stopped.member.token });
    expect(await top.json()).toMatchObject([{ plays: 1 }, { plays: 1 }]);
    await t.stop();
  });
});

describe('a start without a saved counting (saved by an older Melon)', () => {
  const restart = restartedAfter(['t1', 't2'], logged, (dataDir) => rm(join(dataDir, 'plays.counting')));

  it('opens its saved index as before, the library read first, and saves a counting at close', async () => {
    const { member, library } = restart;
    const first = restart.t;
    await readsLibraryFirst(first, library, member.token);
    const top = await first.call('/api/stats/top-tracks', { token: member.token });
    expect(await top.json()).toMatchObject([{ plays: 1 }, { plays: 1 }]);
    expect(first.logs.join('\n')).not.toMatch(/rebuilding it/);

    // The next start has it: the statistics come before the library.
    const next = held();
    await first.stop(true);
    // The block's clean-up stops the second start too.
    const t = (restart.t = await startTestServer({
      scanner: fakeScanner(logged),
      dataDir: first.dataDir,
      clock: first.clock,
      libraryTurn: next.turn,
      whileStarting: true,
    }));
    const early = await t.call('/api/stats/top-tracks', { token: member.token });
    expect(await early.json()).toMatchObject([{ plays: 1 }, { plays: 1 }]);
    expect(t.server.store.library.index().tracks).toEqual([]);
    next.release();
  });
});
