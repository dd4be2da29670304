import { beforeAll, expect, it } from 'vitest';
import { MAX_DEVICES_PER_USER, OTHER_DEVICES } from '../../server/services/stats/device-limit.js';
import { fakeScanner } from '../factories/library.js';
import { makeUser, type TestUser } from '../factories/users.js';
import { ASTLEY_MBID, historyLibrary } from '../history/library.js';
import { listenBrainz, scrobblerKey } from '../history/support.js';
import { postJson, useTestServer } from '../support/server.js';

/**
 * One User sends 100,000 listens, each on a `media_player` of its own, through ListenBrainz
 * `import` documents. Every devices read of that user, and the settings page's device list, then
 * held the server as long as the user's history. A user's logs now name at most 256 devices; later
 * new names are counted as "Other devices", which a read can filter by like any device.
 */
const LISTENS = 100_000;
const PER_DOCUMENT = 1_000;
const START = Date.parse('2024-01-01T00:00:00Z') / 1000;
/**
 * The k-th listen's time: one a second, never at a minute's :00. A listen at :00 may stand for a
 * listen known only to its minute, and the import takes the same track within that minute for it.
 */
const secondOf = (k: number) => START + Math.floor(k / 59) * 60 + 1 + (k % 59);

const t = useTestServer({ scanner: fakeScanner(historyLibrary()) });
let user: TestUser;

beforeAll(async () => {
  user = await makeUser(t);
  // Two devices logged before the flood: they stay theirs.
  for (const device of ['Kitchen', 'Phone']) {
    expect((await postJson(t, '/api/stats/log-play', { id: 'never', device }, user.token)).status).toBe(200);
  }
  const key = await scrobblerKey(t, user);
  for (let first = 0; first < LISTENS; first += PER_DOCUMENT) {
    const payload = Array.from({ length: PER_DOCUMENT }, (_, i) => ({
      listened_at: secondOf(first + i),
      track_metadata: {
        artist_name: 'Rick Astley',
        track_name: 'Never Gonna Give You Up',
        additional_info: { recording_mbid: ASTLEY_MBID, media_player: `player ${first + i}` },
      },
    }));
    const response = await listenBrainz(t, 'submit-listens', {
      token: key,
      body: { listen_type: 'import', payload },
    });
    expect(response.status, await response.clone().text()).toBe(200);
  }
}, 600_000);

const read = async <T>(path: string): Promise<T> => {
  const response = await t.call(path, { token: user.token });
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
};

it('a user flooding device names gets 256 of them and one "Other devices" entry for the rest', async () => {
  const devices = await read<Array<{ device: string | null; plays: number }>>('/api/stats/devices');
  expect(devices.length).toBeLessThanOrEqual(MAX_DEVICES_PER_USER + 1);
  expect(devices[0]).toEqual({ device: OTHER_DEVICES, plays: LISTENS + 2 - MAX_DEVICES_PER_USER });
  const names = devices.map((entry) => entry.device);
  expect(names).toEqual(expect.arrayContaining(['Kitchen', 'Phone', 'player 0', 'player 253']));
  expect(names).not.toContain('player 254');
  expect(devices.reduce((sum, entry) => sum + entry.plays, 0)).toBe(LISTENS + 2);
}, 60_000);

it('"Other devices" filters like any device, and a known name keeps being its own', async () => {
  const other = await read<{ plays: number }>(
    `/api/stats/listening-time?device=${encodeURIComponent(OTHER_DEVICES)}`,
  );
  expect(other.plays).toBe(LISTENS + 2 - MAX_DEVICES_PER_USER);
  expect(
    (await postJson(t, '/api/stats/log-play', { id: 'never', device: 'kitchen' }, user.token)).status,
  ).toBe(200);
  expect((await postJson(t, '/api/stats/log-play', { id: 'never', device: 'Car' }, user.token)).status).toBe(
    200,
  );
  expect((await read<{ plays: number }>('/api/stats/listening-time?device=Kitchen')).plays).toBe(2);
  expect((await read<{ plays: number }>('/api/stats/listening-time?device=Car')).plays).toBe(0);
  const top = await read<{ plays: number }>(
    `/api/stats/listening-time?device=${encodeURIComponent(OTHER_DEVICES)}`,
  );
  expect(top.plays).toBe(other.plays + 1);
}, 60_000);

it("another user's devices are not counted against this one's", async () => {
  const neighbour = await makeUser(t);
  expect(
    (await postJson(t, '/api/stats/log-play', { id: 'never', device: 'Car' }, neighbour.token)).status,
  ).toBe(200);
  const response = await t.call('/api/stats/devices', { token: neighbour.token });
  expect(await response.json()).toEqual([{ device: 'Car', plays: 1 }]);
});
