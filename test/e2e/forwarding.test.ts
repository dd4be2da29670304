import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Forwarding } from '../../server/contract/forwarding.js';
import { fakeScanner } from '../factories/library.js';
import { makeUser, type TestUser } from '../factories/users.js';
import { historyLibrary } from '../history/library.js';
import { FakeListenBrainz } from '../support/fake-listenbrainz.js';
import { postJson } from '../support/server.js';
import { axeViolations } from './axe.js';
import { eventually, openSection, screenshot, signOut, useServerAndBrowser } from './browser.js';

/**
 * The Account view's forwarding card: a member turns forwarding on with a ListenBrainz token, sees
 * what waits and when the last send went, reads "token refused" when the service refuses it, and
 * turns it off. The service is a fake ListenBrainz on 127.0.0.1.
 */
let fake: FakeListenBrainz;
// Registered first, so it stops after the server (after-hooks run in reverse).
afterAll(() => fake?.stop());
const { t, browser, signIn } = useServerAndBrowser(async () => {
  fake = await FakeListenBrainz.start();
  return {
    scanner: fakeScanner(historyLibrary()),
    env: { MELON_LISTENBRAINZ_URL: fake.url },
    config: { forwardRetryMs: 100 },
  };
});
let member: TestUser;

beforeAll(async () => {
  member = await makeUser(t, { username: 'robin' });
});

/** The member's forwarding as the server has it now. */
async function forwarding(): Promise<Forwarding> {
  return (await (await t.call('/api/users/forwarding', { token: member.token })).json()) as Forwarding;
}

describe('Account: forward plays to ListenBrainz', () => {
  it('turns on with a token, shows the last send and a refused token, and turns off', async () => {
    const { page } = browser;
    await signIn(member);
    let view = await openSection(page, 'account');
    const status = () => view.getByTestId('forwarding-status').textContent();
    await eventually(status, 'Off: your plays stay here.');
    expect(await view.getByTestId('forwarding-url').inputValue()).toBe(fake.url);
    expect(await axeViolations(page)).toEqual([]);

    await view.getByTestId('forwarding-token').fill('my-listenbrainz-token');
    await view.getByTestId('forwarding-save').click();
    await eventually(status, `On: your plays go to ${fake.url}.`);
    expect(await view.getByTestId('forwarding-token').inputValue()).toBe('');

    expect((await postJson(t, '/api/stats/log-play', { id: 'never' }, member.token)).status).toBe(200);
    await fake.received(1);
    expect(fake.submissions[0]!.authorization).toBe('Token my-listenbrainz-token');
    // Received is not yet recorded: the server notes the send once the service has answered, and
    // the card, drawn before that, would wait for its next refresh.
    await expect.poll(async () => (await forwarding()).lastSentAt).not.toBeNull();
    await page.reload();
    view = await openSection(page, 'account');
    await eventually(
      () => view.getByTestId('forwarding-queue').textContent(),
      'Waiting to be sent: 0 · Last sent: just now',
    );

    fake.answers.push({ status: 401, body: { code: 401, error: 'Invalid authorization token.' } });
    expect((await postJson(t, '/api/stats/log-play', { id: 'crazy' }, member.token)).status).toBe(200);
    await fake.received(2);
    await expect.poll(async () => (await forwarding()).lastError?.code).toBe('token_refused');
    await page.reload();
    view = await openSection(page, 'account');
    await eventually(
      async () => ((await view.getByTestId('forwarding-error').textContent()) ?? '').split(' (')[0],
      'Token refused: sending has stopped until you give a valid token.',
    );
    expect(await view.getByTestId('forwarding-queue').textContent()).toMatch(/^Waiting to be sent: 1 · /);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'account-forwarding-token-refused');

    await view.getByTestId('forwarding-off').click();
    await eventually(status, 'Off: your plays stay here.');
    expect(await view.getByTestId('forwarding-error').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('is not offered to a Pass account, which has no plays', async () => {
    const { page } = browser;
    const wall = await makeUser(t, { role: 'Pass', username: 'hall-display' });
    await signOut(page);
    await signIn(wall);
    const view = await openSection(page, 'account');
    await view.getByTestId('password-current').waitFor();
    expect(await view.getByTestId('forwarding-status').count()).toBe(0);
  });
});
