import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_ROLES, type AccountRole } from '../../server/domain/user.js';
import { ImageCache } from '../../server/services/image-cache.js';
import { ImageResizer } from '../../server/services/image-resizer.js';
import { subsonicMethods } from '../../server/http/subsonic/method-table.js';
import { makeUser } from '../factories/users.js';
import { ADMIN_PASSWORD, ADMIN_USER, useTestServer } from '../support/server.js';
import { subsonic, type Credentials } from './support.js';

/**
 * Walks the Subsonic method table: every method that lists roles refuses a caller without
 * credentials (10), with a wrong password (40) and of each role it does not list (50), before it
 * reads its parameters; every method answers at both spellings of its path. A new method cannot
 * skip this.
 */
const t = useTestServer();
const accounts = {} as Record<AccountRole, Credentials>;

beforeAll(async () => {
  accounts.Admin = { username: ADMIN_USER, password: ADMIN_PASSWORD };
  for (const role of ['User', 'Pass'] as const) {
    const user = await makeUser(t, { role });
    accounts[role] = { username: user.username, password: user.password };
  }
});

const table = () =>
  subsonicMethods(t.server.services, {
    clock: t.clock,
    resizer: new ImageResizer(new ImageCache(join(t.dataDir, 'cache', 'resized'))),
    apiKeys: true,
  });

describe('Subsonic method table', () => {
  it("lists each method once, with the issue's methods all there", () => {
    const names = table().map((method) => method.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(
      expect.arrayContaining([
        'ping',
        'getAlbumList2',
        'search3',
        'stream',
        'savePlayQueue',
        'getArtistInfo2',
        'getAlbumInfo2',
        'getSimilarSongs2',
        'getPodcasts',
        'getInternetRadioStations',
        'createInternetRadioStation',
        'getBookmarks',
        'createBookmark',
      ]),
    );
    expect(names).toHaveLength(65);
  });

  it('refuses callers that are not allowed, on every method', async () => {
    for (const method of table()) {
      if (method.access === 'public') continue;
      const label = method.name;
      const anonymous = await subsonic(t, {}, method.name);
      expect(anonymous.error?.code, label).toBe(10);
      const wrong = await subsonic(t, { username: 'nobody', password: 'nothing' }, method.name);
      expect(wrong.error?.code, label).toBe(40);
      for (const role of ACCOUNT_ROLES.filter((r) => !(method.access as readonly string[]).includes(r))) {
        const refused = await subsonic(t, accounts[role], method.name);
        expect(refused.error?.code, `${label} as ${role}`).toBe(50);
      }
    }
  });

  it('answers at /rest/{method} and /rest/{method}.view alike', async () => {
    for (const path of ['/rest/ping', '/rest/ping.view']) {
      const response = await fetch(
        `${t.url}${path}?u=${ADMIN_USER}&p=${encodeURIComponent(ADMIN_PASSWORD)}&f=json`,
      );
      const body = (await response.json()) as { 'subsonic-response': { status: string } };
      expect(body['subsonic-response'].status, path).toBe('ok');
    }
  });

  it('answers getOpenSubsonicExtensions without credentials', async () => {
    const body = await subsonic(t, {}, 'getOpenSubsonicExtensions');
    expect(body.openSubsonicExtensions).toEqual([
      { name: 'formPost', versions: [1] },
      { name: 'apiKeyAuthentication', versions: [1] },
      { name: 'topSongsByArtistId', versions: [1] },
      { name: 'songLyrics', versions: [1] },
    ]);
  });
});
