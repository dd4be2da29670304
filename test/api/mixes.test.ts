import { describe, expect, it } from 'vitest';
import type { Mix, MixList } from '../../server/contract/mixes.js';
import { fakeScanner, oneAlbumLibrary } from '../factories/library.js';
import { makeUser } from '../factories/users.js';
import {
  loginToken,
  postJson,
  problem,
  startTestServer,
  type TestServer,
  useTestServer,
} from '../support/server.js';

/** The native mixes API (docs/API.md, Mixes): each account's own list, hiding that lasts. */
const index = oneAlbumLibrary(3);
index.tracks.forEach((track, i) => (track.mtimeMs = 1_000 * (i + 1)));

async function list(t: TestServer, token: string, query = ''): Promise<Mix[]> {
  const response = await t.call(`/api/mixes${query}`, { token });
  expect(response.status).toBe(200);
  return ((await response.json()) as MixList).items;
}

describe('mixes in the native API', () => {
  it("lists each account's own mixes, hides one for that account alone, and keeps it hidden after a restart", async () => {
    let t = await startTestServer({ scanner: fakeScanner(index) });
    try {
      const alex = await makeUser(t);
      const sam = await makeUser(t);
      for (const id of ['t1', 't1', 't1', 't2'])
        expect((await postJson(t, '/api/stats/log-play', { id }, alex.token)).status).toBe(200);

      const mine = await list(t, alex.token);
      expect(mine.map((mix) => mix.id)).toEqual([
        'mix-top-month',
        'mix-on-repeat',
        'mix-household',
        'mix-new',
      ]);
      expect(mine.find((mix) => mix.id === 'mix-new')?.trackIds).toEqual(['t3']);
      // Sam played nothing: every track is new to him, newest file first.
      expect((await list(t, sam.token)).find((mix) => mix.id === 'mix-new')?.trackIds).toEqual([
        't3',
        't2',
        't1',
      ]);

      const hidden = await postJson(t, '/api/mixes/hide', { id: 'mix-new' }, alex.token);
      expect(await hidden.json()).toEqual({ id: 'mix-new', hidden: true });
      t = await t.restart();
      const token = await loginToken(t.call, alex.username, alex.password);
      expect((await list(t, token)).map((mix) => mix.id)).not.toContain('mix-new');
      const all = await list(t, token, '?includeHidden=true');
      expect(all.find((mix) => mix.id === 'mix-new')).toMatchObject({ hidden: true, trackIds: ['t3'] });
      expect(
        (await list(t, await loginToken(t.call, sam.username, sam.password))).map((mix) => mix.id),
      ).toContain('mix-new');
      await postJson(t, '/api/mixes/unhide', { id: 'mix-new' }, token);
      expect((await list(t, token)).map((mix) => mix.id)).toContain('mix-new');
    } finally {
      await t.stop();
    }
  });
});

describe('one mix in the native API', () => {
  const t = useTestServer({ scanner: fakeScanner(index) });

  it("sends a mix's tracks in its order in one answer", async () => {
    const sam = await makeUser(t);
    const response = await t.call('/api/mixes/mix-new/tracks', { token: sam.token });
    expect(response.status).toBe(200);
    const { items } = (await response.json()) as { items: Array<{ id: string }> };
    // Sam played nothing: every track is new to him, newest file first.
    expect(items.map((track) => track.id)).toEqual(['t3', 't2', 't1']);
    const unknown = await t.call('/api/mixes/mix-nothing/tracks', { token: sam.token });
    expect((await problem(unknown)).code).toBe('mix_not_found');
  });

  it('answers 404 mix_not_found for an id that is no mix, and 400 without an id', async () => {
    const alex = await makeUser(t);
    for (const response of [
      await t.call('/api/mixes/mix-nothing', { token: alex.token }),
      await postJson(t, '/api/mixes/hide', { id: 'top' }, alex.token),
    ]) {
      expect(response.status).toBe(404);
      expect((await problem(response)).code).toBe('mix_not_found');
    }
    const missing = await postJson(t, '/api/mixes/hide', {}, alex.token);
    expect(missing.status).toBe(400);
    expect((await problem(missing)).code).toBe('invalid_parameter');
  });
});
