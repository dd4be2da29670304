import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock.js';
import type { Forwarding } from '../../server/contract/forwarding.js';
import { fakeScanner } from '../factories/library.js';
import { makeUser, type TestUser } from '../factories/users.js';
import { FakeListenBrainz } from '../support/fake-listenbrainz.js';
import { postJson, problem, startTestServer, useTestServer, type TestServer } from '../support/server.js';
import { subsonicOnce } from '../subsonic/support.js';
import { ASTLEY_MBID, historyLibrary } from './library.js';
import { importFile, listenBrainz, scrobblerKey } from './support.js';

/** The first retry wait of the test servers; each failure after doubles it. */
const RETRY_MS = 150;
const LB_TOKEN = '7f1d6ad8-3c2a-4b7e-9e0f-0123456789ab';

let fake: FakeListenBrainz;
const t = useTestServer(async () => {
  fake = await FakeListenBrainz.start();
  return {
    scanner: fakeScanner(historyLibrary()),
    clock: new ManualClock(Date.parse('2026-06-15T12:00:00Z')),
    // The default service is the fake: a member who sets nothing must still reach nobody.
    env: { MELON_LISTENBRAINZ_URL: fake.url },
    config: { forwardRetryMs: RETRY_MS },
  };
});
afterAll(() => fake.stop());

async function forwarding(user: TestUser): Promise<Forwarding> {
  const response = await t.call('/api/users/forwarding', { token: user.token });
  expect(response.status).toBe(200);
  return (await response.json()) as Forwarding;
}

async function turnOn(user: TestUser, url = fake.url, token = LB_TOKEN): Promise<Forwarding> {
  const response = await postJson(t, '/api/users/forwarding', { url, token }, user.token);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as Forwarding;
}

/** A new member with forwarding on, and how many submissions the fake had before. */
async function forwardingMember(): Promise<{ member: TestUser; before: number }> {
  const member = await makeUser(t);
  await turnOn(member);
  return { member, before: fake.submissions.length };
}

/** The second submission since `before` came a rate-limit window (1 s) after the first. */
function expectSecondSendAfterWindow(before: number): void {
  const [first, second] = fake.submissions.slice(before).map((submission) => submission.at);
  expect(second! - first!).toBeGreaterThanOrEqual(990);
}

async function logPlay(user: TestUser, id: string, extra: Record<string, string> = {}) {
  const response = await postJson(t, '/api/stats/log-play', { id, ...extra }, user.token);
  expect(response.status).toBe(200);
}

async function until(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 10_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 4 * RETRY_MS));

/** A new member forwarding to a port where nothing answers, with one play waiting in the outbox. */
async function memberWithOnePlayQueued(): Promise<TestUser> {
  const member = await makeUser(t);
  await turnOn(member, 'http://127.0.0.1:9');
  await logPlay(member, 'never');
  await until(async () => (await forwarding(member)).queued === 1, 'one queued');
  return member;
}

/** A track of the library, as a scrobbler names it. */
const SOMETHING = { track_metadata: { artist_name: 'The Beatles', track_name: 'Something' } };

/** A scrobbler sends listens to Melon's ListenBrainz API with the API key `key`. */
const submitListens = (key: string, listenType: 'single' | 'import' | 'playing_now', payload: unknown[]) =>
  listenBrainz(t, 'submit-listens', { token: key, body: { listen_type: listenType, payload } });

describe('with no forwarding set', () => {
  it('sends nothing anywhere, whatever the member plays, scrobbles, imports or announces', async () => {
    const quiet = await makeUser(t);
    expect(await forwarding(quiet)).toEqual({
      url: fake.url,
      enabled: false,
      queued: 0,
      lastSentAt: null,
      lastError: null,
    });
    await logPlay(quiet, 'never');
    await postJson(t, '/api/now-playing', { id: 'crazy' }, quiet.token);
    await subsonicOnce(t, 'scrobble', { u: quiet.username, p: quiet.password, id: 'sun' }, 'json');
    const key = await scrobblerKey(t, quiet);
    await submitListens(key, 'single', [{ listened_at: 1767261600, ...SOMETHING }]);
    await submitListens(key, 'playing_now', [SOMETHING]);
    await settle();
    expect(fake.requests).toBe(0);
  });
});

describe('POST /api/users/forwarding', () => {
  it('keeps the token sealed: never in an answer, never in clear in the data folder', async () => {
    const member = await makeUser(t);
    const answer = await turnOn(member);
    expect(answer).toMatchObject({ url: fake.url, enabled: true, queued: 0, lastError: null });
    expect(JSON.stringify(answer)).not.toContain(LB_TOKEN);
    expect(JSON.stringify(await forwarding(member))).not.toContain(LB_TOKEN);
    await t.server.store.flush();
    const file = await readFile(join(t.dataDir, 'forwarding.json'), 'utf8');
    expect(file).toContain(member.id);
    expect(file).not.toContain(LB_TOKEN);
  });

  it('refuses a service address that is not plain http(s), carries credentials or is too long', async () => {
    const member = await makeUser(t);
    for (const url of [
      'ftp://127.0.0.1:9',
      'http://user:secret@127.0.0.1:9',
      'http://127.0.0.1:9/?token=x',
      'javascript:alert(1)',
      `http://127.0.0.1:9/${'x'.repeat(600)}`,
    ]) {
      const response = await postJson(t, '/api/users/forwarding', { url, token: LB_TOKEN }, member.token);
      expect((await problem(response)).code, url).toBe('invalid_parameter');
    }
    expect((await forwarding(member)).enabled).toBe(false);
  });

  it('is for accounts with plays: a Pass account is refused', async () => {
    const wall = await makeUser(t, { role: 'Pass' });
    const response = await postJson(t, '/api/users/forwarding', { token: LB_TOKEN }, wall.token);
    expect((await problem(response)).code).toBe('forbidden_role');
  });
});

describe('forwarding plays', () => {
  let member: TestUser;
  beforeAll(async () => {
    member = await makeUser(t);
    await turnOn(member);
  });

  it("sends a play logged by the page's player or a native app as a single listen", async () => {
    const before = fake.submissions.length;
    await logPlay(member, 'never', { device: 'Kitchen' });
    await fake.received(before + 1);
    const submission = fake.submissions[before]!;
    expect(submission.path).toBe('/1/submit-listens');
    expect(submission.authorization).toBe(`Token ${LB_TOKEN}`);
    expect(submission.listenType).toBe('single');
    expect(submission.payload).toEqual([
      {
        listened_at: Date.parse('2026-06-15T12:00:00Z') / 1000,
        track_metadata: {
          artist_name: 'Rick Astley',
          track_name: 'Never Gonna Give You Up',
          release_name: 'Whenever You Need Somebody',
          additional_info: expect.objectContaining({
            media_player: 'Kitchen',
            duration_ms: 213_000,
            recording_mbid: ASTLEY_MBID,
            submission_client: 'Melon',
          }) as unknown,
        },
      },
    ]);
    await until(async () => (await forwarding(member)).lastSentAt !== null, 'lastSentAt');
    expect(await forwarding(member)).toMatchObject({ queued: 0, lastError: null });
    expect(fake.violations).toEqual([]);
  });

  it('sends a Subsonic scrobble, and a ListenBrainz submission matched or not, but no skip', async () => {
    const before = fake.submissions.length;
    await postJson(t, '/api/stats/log-skip', { id: 'sun' }, member.token);
    await subsonicOnce(
      t,
      'scrobble',
      { u: member.username, p: member.password, id: 'crazy', c: 'DSub', time: '1767261000000' },
      'json',
    );
    await fake.received(before + 1);
    const key = await scrobblerKey(t, member);
    const submitted = await submitListens(key, 'import', [
      { listened_at: 1767261600, ...SOMETHING },
      { listened_at: 1767261900, track_metadata: { artist_name: 'Nobody Here', track_name: 'Unknown' } },
    ]);
    expect(submitted.status).toBe(200);
    await until(() => fake.listens().length >= before + 3, 'three listens');
    const names = fake
      .listens()
      .slice(-3)
      .map((listen) => (listen.track_metadata as { track_name: string }).track_name);
    expect(names).toEqual(['Crazy in Love', 'Something', 'Unknown']);
    expect(fake.listens().at(-3)).toMatchObject({
      listened_at: 1767261000,
      track_metadata: { additional_info: { media_player: 'DSub' } },
    });
    expect(fake.violations).toEqual([]);
  });

  it('does not send a history import, nor a scrobbler sending the same listen twice', async () => {
    const before = fake.requests;
    const key = await scrobblerKey(t, member);
    const again = await submitListens(key, 'single', [{ listened_at: 1767261600, ...SOMETHING }]);
    expect(again.status).toBe(200);
    const line = JSON.stringify({
      listened_at: 1700000000,
      track_metadata: { artist_name: 'Rick Astley', track_name: 'Never Gonna Give You Up' },
    });
    const report = await importFile(t, member.token, { source: 'listenbrainz' }, `${line}\n`);
    expect(report.matched).toBe(1);
    await settle();
    expect(fake.requests).toBe(before);
  });

  it('sends "playing now" from every API as playing_now, without a time and never queued', async () => {
    const before = fake.listens('playing_now').length;
    await postJson(t, '/api/now-playing', { id: 'never', device: 'Melon web' }, member.token);
    await subsonicOnce(
      t,
      'scrobble',
      { u: member.username, p: member.password, id: 'crazy', submission: 'false' },
      'json',
    );
    const key = await scrobblerKey(t, member);
    await submitListens(key, 'playing_now', [SOMETHING]);
    await until(() => fake.listens('playing_now').length >= before + 3, 'three playing_now');
    const names = fake
      .listens('playing_now')
      .slice(-3)
      .map((listen) => (listen.track_metadata as { track_name: string }).track_name);
    expect(names.sort()).toEqual(['Crazy in Love', 'Never Gonna Give You Up', 'Something']);
    expect((await forwarding(member)).queued).toBe(0);
    expect(fake.violations).toEqual([]);
  });
});

describe('when the service refuses or fails', () => {
  it('waits longer after each failure in a row, keeping the listens, then sends them', async () => {
    const { member, before } = await forwardingMember();
    fake.answers.push({ status: 503 }, { status: 503 }, { status: 503 });
    await logPlay(member, 'never');
    await fake.received(before + 4);
    const times = fake.submissions.slice(before).map((submission) => submission.at);
    const gaps = times.slice(1).map((time, i) => time - times[i]!);
    // base, twice the base, four times the base
    expect(gaps[0]).toBeGreaterThanOrEqual(RETRY_MS - 10);
    expect(gaps[1]).toBeGreaterThanOrEqual(2 * RETRY_MS - 10);
    expect(gaps[2]).toBeGreaterThanOrEqual(4 * RETRY_MS - 10);
    expect(fake.submissions.slice(before).every((s) => s.payload.length === 1)).toBe(true);
    await until(async () => (await forwarding(member)).queued === 0, 'the outbox to empty');
    expect((await forwarding(member)).lastError).toBeNull();
  });

  it("waits as long as a 429's X-RateLimit-Reset-In says, and shows it meanwhile", async () => {
    const { member, before } = await forwardingMember();
    fake.answers.push({
      status: 429,
      body: { code: 429, error: 'Too many requests' },
      headers: { 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset-In': '1' },
    });
    await logPlay(member, 'crazy');
    await fake.received(before + 1);
    await until(async () => (await forwarding(member)).lastError !== null, 'the error');
    expect((await forwarding(member)).lastError?.code).toBe('rate_limited');
    expect((await forwarding(member)).queued).toBe(1);
    await fake.received(before + 2, 5_000);
    expectSecondSendAfterWindow(before);
  });

  it('waits for the window to reset when a success says no requests remain', async () => {
    const { member, before } = await forwardingMember();
    fake.answers.push({
      status: 200,
      headers: { 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset-In': '1' },
    });
    await logPlay(member, 'never');
    await fake.received(before + 1);
    await logPlay(member, 'crazy');
    await fake.received(before + 2, 5_000);
    expectSecondSendAfterWindow(before);
  });

  it('stops at a 401 with "token refused", keeps what waits, and sends again once given a token', async () => {
    const { member, before } = await forwardingMember();
    fake.answers.push({ status: 401, body: { code: 401, error: 'Invalid authorization token.' } });
    await logPlay(member, 'never');
    await fake.received(before + 1);
    await until(async () => (await forwarding(member)).lastError !== null, 'the error');
    const stopped = await forwarding(member);
    expect(stopped.lastError?.code).toBe('token_refused');
    expect(stopped.lastError?.message).toMatch(/^Token refused/);
    await logPlay(member, 'crazy');
    await settle();
    expect(fake.submissions.length).toBe(before + 1);
    expect((await forwarding(member)).queued).toBe(2);
    await turnOn(member, fake.url, 'a-new-token');
    await fake.received(before + 2);
    expect(fake.submissions.at(-1)).toMatchObject({
      listenType: 'import',
      authorization: 'Token a-new-token',
    });
    expect(fake.submissions.at(-1)!.payload).toHaveLength(2);
  });

  it('drops a listen the service refuses (with the reason) and sends the rest', async () => {
    const member = await makeUser(t);
    const before = fake.submissions.length;
    // Queued while the service is unreachable, so they go out together.
    await turnOn(member, 'http://127.0.0.1:9');
    await logPlay(member, 'never', { dateTime: '2026-06-15T11:00:00Z' });
    await logPlay(member, 'crazy', { dateTime: '2026-06-15T11:05:00Z' });
    await logPlay(member, 'sun', { dateTime: '2026-06-15T11:10:00Z' });
    await until(async () => (await forwarding(member)).queued === 3, 'three queued');
    // The batch is refused, then each listen alone: the second is the bad one.
    fake.answers.push(
      { status: 400, body: { code: 400, error: 'Value for key listened_at is too low.' } },
      { status: 200 },
      { status: 400, body: { code: 400, error: 'Value for key listened_at is too low.' } },
    );
    await turnOn(member);
    await fake.received(before + 4);
    await until(async () => (await forwarding(member)).queued === 0, 'the outbox to empty');
    const sent = fake.submissions.slice(before);
    expect(sent.map((s) => `${s.listenType}:${s.payload.length}`)).toEqual([
      'import:3',
      'single:1',
      'single:1',
      'single:1',
    ]);
    const error = (await forwarding(member)).lastError;
    expect(error).toMatchObject({ code: 'listen_refused', message: 'Value for key listened_at is too low.' });
  });
});

describe('turning forwarding off', () => {
  it('empties the outbox and sends no later play', async () => {
    const member = await memberWithOnePlayQueued();
    const response = await postJson(t, '/api/users/forwarding', { token: null }, member.token);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ enabled: false, queued: 0 });
    const before = fake.requests;
    await logPlay(member, 'crazy');
    await settle();
    expect(fake.requests).toBe(before);
    expect((await forwarding(member)).queued).toBe(0);
  });
});

describe('a deleted account', () => {
  it('takes its forwarding, token and outbox with it', async () => {
    const member = await memberWithOnePlayQueued();
    expect((await postJson(t, '/api/users/delete', { id: member.id }, t.adminToken)).status).toBe(200);
    await t.server.store.flush();
    expect(await readFile(join(t.dataDir, 'forwarding.json'), 'utf8')).not.toContain(member.id);
  });
});

describe('the outbox', () => {
  let down: FakeListenBrainz | null = null;
  let server: TestServer | null = null;
  afterAll(async () => {
    await server?.stop();
    await down?.stop();
  });

  it('survives a restart with the service down, and is delivered once it is back', async () => {
    // A port that is free now, for a service that comes back later at the same address.
    const probe = await FakeListenBrainz.start();
    const port = probe.port;
    await probe.stop();
    server = await startTestServer({
      scanner: fakeScanner(historyLibrary()),
      env: { MELON_LISTENBRAINZ_URL: 'http://127.0.0.1:9' },
      config: { forwardRetryMs: RETRY_MS },
    });
    const member = await makeUser(server);
    const url = `http://127.0.0.1:${port}`;
    expect(
      (await postJson(server, '/api/users/forwarding', { url, token: LB_TOKEN }, member.token)).status,
    ).toBe(200);
    for (const id of ['never', 'crazy']) {
      expect((await postJson(server, '/api/stats/log-play', { id }, member.token)).status).toBe(200);
    }
    const state = async (s: TestServer) =>
      (await (await s.call('/api/users/forwarding', { token: member.token })).json()) as Forwarding;
    await until(async () => (await state(server!)).lastError?.code === 'unreachable', 'unreachable');
    expect((await state(server)).queued).toBe(2);
    server = await server.restart();
    expect((await state(server)).queued).toBe(2);
    down = await FakeListenBrainz.start(port);
    // The restarted server retries on its own: no new play is needed.
    await down.received(1, 15_000);
    expect(
      down.listens().map((listen) => (listen.track_metadata as { track_name: string }).track_name),
    ).toEqual(['Never Gonna Give You Up', 'Crazy in Love']);
    await until(async () => (await state(server!)).queued === 0, 'the outbox to empty');
    expect(down.violations).toEqual([]);
  });
});
