import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser, type TestUser } from '../factories/users.js';
import { postJson, problem, useTestServer } from '../support/server.js';
import { historyServer, importFile, listenBrainz, playCount, scrobblerKey } from './support.js';

const t = useTestServer(historyServer());
let user: TestUser;

beforeAll(async () => {
  user = await makeUser(t);
  const log = async (id: string, dateTime: string, type = 'play', device?: string) =>
    expect(
      (await postJson(t, `/api/stats/log-${type}`, { id, dateTime, ...(device && { device }) }, user.token))
        .status,
    ).toBe(200);
  await log('never', '2026-01-05T10:00:00.123Z', 'play', 'Kitchen, "the" speaker');
  await log('crazy', '2026-01-05T10:04:00Z');
  await log('sun', '2026-01-05T10:09:00Z', 'skip');
  await log('something', '2026-02-01T18:00:00Z');
  const scrobble = await listenBrainz(t, 'submit-listens', {
    token: await scrobblerKey(t, user),
    body: {
      listen_type: 'single',
      payload: [
        { listened_at: 1767261600, track_metadata: { artist_name: 'The Beatles', track_name: 'Something' } },
      ],
    },
  });
  expect(scrobble.status).toBe(200);
});

describe('GET /api/stats/export', () => {
  it('streams the plays as ListenBrainz JSON lines that import back with nothing added', async () => {
    const response = await t.call('/api/stats/export?format=listenbrainz', { token: user.token });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="melon-${user.id}.jsonl"`);
    const text = await response.text();
    const lines = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { listened_at: number; track_metadata: Record<string, unknown> });
    expect(lines).toHaveLength(4); // plays only: ListenBrainz has no skips
    expect(lines[0]).toMatchObject({
      listened_at: 1767261600,
      track_metadata: {
        artist_name: 'The Beatles',
        track_name: 'Something',
        release_name: 'Abbey Road (Remastered)',
      },
    });
    expect(lines[1]!.track_metadata).toMatchObject({
      additional_info: {
        media_player: 'Kitchen, "the" speaker',
        submission_client: 'Melon',
        duration_ms: 213_000,
      },
    });

    const before = await playCount(t, user);
    const report = await importFile(t, user.token, { source: 'listenbrainz' }, text);
    expect(report).toMatchObject({ entriesRead: 4, matched: 0, unmatched: 0, duplicates: 4, refused: 0 });
    expect(await playCount(t, user)).toBe(before);
  });

  it('streams CSV with plays and skips, quoting where needed', async () => {
    const response = await t.call(`/api/stats/export?format=csv&userId=${user.id}`, { token: t.adminToken });
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    const rows = (await response.text()).trim().split('\n');
    expect(rows[0]).toBe('artist,album,title,date,type,device,durationMs,trackId');
    expect(rows).toContain(
      'Rick Astley,Whenever You Need Somebody,Never Gonna Give You Up,2026-01-05T10:00:00.123Z,play,"Kitchen, ""the"" speaker",213000,never',
    );
    expect(rows.filter((row) => row.includes(',skip,'))).toEqual([
      'The Beatles,Abbey Road (Remastered),Here Comes the Sun - Remastered 2009,2026-01-05T10:09:00.000Z,skip,,185000,sun',
    ]);
  });

  it('follows the statistics privacy rule, and refuses an unknown format', async () => {
    const other = await makeUser(t);
    await postJson(t, '/api/users/settings', { publicStats: false }, other.token);
    expect(
      (await problem(await t.call(`/api/stats/export?userId=${other.id}`, { token: user.token }))).code,
    ).toBe('stats_private');
    const bad = await t.call('/api/stats/export?format=xml', { token: user.token });
    expect(await problem(bad)).toMatchObject({ code: 'invalid_parameter', parameter: 'format' });
  });
});
