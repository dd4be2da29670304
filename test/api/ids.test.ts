import { describe, expect, it } from 'vitest';
import { postForm, problem, useTestServer } from '../support/server.js';

/** docs/API.md, Conventions: an id that does not have the id shape, however long, is a 404 of the resource. */
const t = useTestServer();

const long = 'x'.repeat(5000);

describe('ids of the wrong shape', () => {
  it.each([
    ['/api/stats/log-play', { id: long }, 'track_not_found'],
    ['/api/stats/rate-track', { id: long, rating: '5' }, 'track_not_found'],
    ['/api/users/delete', { id: long }, 'user_not_found'],
    ['/api/users/change-password', { userId: long, newPassword: 'a long new password' }, 'user_not_found'],
    ['/api/art/delete/track-art', { id: long, pos: '0' }, 'track_not_found'],
    ['/api/art/delete/artist-pfp', { id: `../${long}`, pos: '0' }, 'artist_not_found'],
  ])('%s answers 404 for a 5000-character id', async (path, fields, code) => {
    const response = await postForm(t, path, fields, t.adminToken);
    expect(await problem(response)).toMatchObject({ status: 404, code });
  });

  it('a stats read for a 5000-character user id is a 404 too', async () => {
    const response = await t.call(`/api/stats/top-tracks?userId=${long}`, { token: t.adminToken });
    expect(await problem(response)).toMatchObject({ status: 404, code: 'user_not_found' });
  });
});
