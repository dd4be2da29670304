import { beforeAll, describe, expect, it } from 'vitest';
import { fakeScanner, makeLibrary } from '../factories/library.js';
import { makeUser, type TestUser } from '../factories/users.js';
import { listenBrainz, scrobblerKey } from '../history/support.js';
import { snapshot } from '../support/attacker.js';
import { problem, useTestServer } from '../support/server.js';

/**
 * A JSON body nested 100,000 deep is a few hundred kilobytes, well under the body limits, and
 * parses; what walks it afterwards recursively (validation, logging, answers) overflows the stack.
 * Every API answers it as a bad request, before any handler sees it, and the server stays up.
 */
const DEPTH = 100_000;
const deepArray = '['.repeat(DEPTH) + ']'.repeat(DEPTH);
const deepObject = '{"a":'.repeat(DEPTH) + '1' + '}'.repeat(DEPTH);

const t = useTestServer({
  scanner: fakeScanner(
    makeLibrary({ artists: [{ id: 'ar1' }], albums: [{ id: 'al1' }], tracks: [{ id: 't1' }] }),
  ),
});
let user: TestUser;
let key: string;

beforeAll(async () => {
  user = await makeUser(t);
  key = await scrobblerKey(t, user);
});

const json = { 'content-type': 'application/json' };

describe('a JSON body nested 100,000 deep', () => {
  it('is 400 invalid_body on native POST routes, as a value or as the whole body, and writes nothing', async () => {
    const before = await snapshot(t.dataDir);
    const bodies = [
      `{"id":"t1","device":${deepArray}}`,
      `{"id":"t1","device":${deepObject}}`,
      `{"id":"t1","extra":${deepArray}}`,
    ];
    for (const body of bodies) {
      for (const path of ['/api/stats/log-play', '/api/users/settings', '/api/playlists/create']) {
        const response = await t.call(path, { method: 'POST', token: user.token, headers: json, body });
        expect(response.status, path).toBe(400);
        expect((await problem(response)).code, path).toBe('invalid_body');
      }
    }
    expect(await snapshot(t.dataDir)).toEqual(before);
  });

  it('is ListenBrainz 400 on submit-listens, and no listen is logged', async () => {
    for (const payload of [deepArray, deepObject]) {
      const response = await listenBrainz(t, 'submit-listens', {
        token: key,
        raw: `{"listen_type":"import","payload":[{"listened_at":1700000000,"track_metadata":${payload}}]}`,
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ code: 400, error: expect.stringMatching(/nested/) as string });
    }
    const time = await t.call('/api/stats/listening-time', { token: user.token });
    expect(await time.json()).toMatchObject({ plays: 0 });
  });

  it('gets an ordinary Subsonic answer at /rest/ (JSON bodies are not read there), and the server stays up', async () => {
    const response = await fetch(`${t.url}/rest/ping?f=json`, {
      method: 'POST',
      headers: json,
      body: deepArray,
    });
    expect(response.status).toBe(200);
    expect(
      ((await response.json()) as { 'subsonic-response': { status: string } })['subsonic-response'],
    ).toBeDefined();
    const health = await t.call('/api/health');
    expect(health.status).toBe(200);
  });
});
