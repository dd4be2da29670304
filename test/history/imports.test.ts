import { beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock.js';
import { fakeScanner } from '../factories/library.js';
import { makeUser, type TestUser } from '../factories/users.js';
import { problem, useTestServer } from '../support/server.js';
import { ASTLEY_MBID, historyLibrary } from './library.js';
import {
  lastfmCsv,
  listenBrainzArray,
  listenBrainzLines,
  spotifyHistory,
  type SampleListen,
} from './samples.js';
import { importFile, playCount, recentPlays, upload } from './support.js';

const NOW = Date.parse('2026-06-15T12:00:00Z');
const scanner = fakeScanner(historyLibrary());
const t = useTestServer({ scanner, clock: new ManualClock(NOW) });
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  alice = await makeUser(t);
  bob = await makeUser(t);
});

const LB_LISTENS: SampleListen[] = [
  {
    at: '2024-03-01T10:00:00Z',
    artist: 'Rick Astley',
    title: 'never gonna give you up',
    mbid: ASTLEY_MBID,
    player: 'Navidrome',
  },
  {
    at: '2024-03-01T10:05:00Z',
    artist: 'Beyoncé ft. JAY-Z',
    title: 'Crazy in Love',
    album: 'Dangerously in Love',
  },
  { at: '2024-03-01T10:09:00Z', artist: 'Late Band', title: 'Later One', album: 'Arrives Later' },
];

describe('POST /api/stats/import', () => {
  it('imports a ListenBrainz export (JSON lines), reporting bad lines and duplicates; a re-import adds nothing', async () => {
    const file = listenBrainzLines(LB_LISTENS, [
      '{"listened_at": 1709287200, "track_metadata": {"artist_name": "Rick Astley"}}',
      '{not json',
      JSON.stringify({
        listened_at: 1709287200,
        track_metadata: { artist_name: 'Rick Astley', track_name: 'Never Gonna Give You Up' },
      }),
    ]);
    const report = await importFile(t, alice.token, { source: 'listenbrainz' }, file);
    expect(report).toMatchObject({
      status: 'done',
      entriesRead: 6,
      matched: 2,
      unmatched: 1,
      duplicates: 1,
      refused: 2,
    });
    expect(report.problems.map((p) => p.entry)).toEqual([4, 5]);
    const plays = await recentPlays(t, alice);
    expect(plays.map((p) => [p.track.id, p.playedAt, p.device])).toEqual([
      ['crazy', '2024-03-01T10:05:00.000Z', 'Pano Scrobbler'],
      ['never', '2024-03-01T10:00:00.000Z', 'Navidrome'],
    ]);

    const again = await importFile(t, alice.token, { source: 'listenbrainz' }, file);
    expect(again).toMatchObject({ matched: 0, unmatched: 0, duplicates: 4, refused: 2 });
    expect(await playCount(t, alice)).toBe(2);
  });

  it('imports a ListenBrainz export that is one JSON array', async () => {
    const report = await importFile(
      t,
      bob.token,
      { source: 'listenbrainz' },
      listenBrainzArray(LB_LISTENS.slice(0, 2)),
    );
    expect(report).toMatchObject({ status: 'done', entriesRead: 2, matched: 2, refused: 0 });
  });

  it('matches an unmatched listen after a scan brings its album', async () => {
    const before = await playCount(t, alice);
    scanner.set(historyLibrary({ withLateAlbum: true }));
    const scan = await t.call('/api/library/scan', { method: 'POST', token: t.adminToken });
    expect(scan.status).toBe(202);
    await t.server.services.library.waitForIdle();
    for (let i = 0; i < 100 && (await playCount(t, alice)) === before; i += 1)
      await new Promise((r) => setTimeout(r, 20));
    const plays = await recentPlays(t, alice);
    expect(plays[0]).toMatchObject({ playedAt: '2024-03-01T10:09:00.000Z', track: { id: 'laterone' } });
    expect(await playCount(t, alice)).toBe(before + 1);
    // Kept no more: importing the file again finds it a duplicate, not a new unmatched listen.
    const again = await importFile(t, alice.token, { source: 'listenbrainz' }, listenBrainzLines(LB_LISTENS));
    expect(again).toMatchObject({ matched: 0, unmatched: 0, duplicates: 3 });
  });

  it('imports Last.fm CSV (dates in UTC, quoted fields), refusing bad rows', async () => {
    const carol = await makeUser(t);
    const file =
      lastfmCsv([
        ['Rick Astley', 'Whenever You Need Somebody', 'Never Gonna Give You Up', '2021-01-31T14:03:00Z'],
        ['The Beatles', 'Abbey Road (Remastered)', 'Here Comes the Sun', '2021-01-31T14:08:00Z'],
        ['Beyoncé, JAY-Z', 'Dangerously in Love', 'Crazy in Love (feat. Jay-Z)', '2021-01-31T14:12:00Z'],
        ['Rick Astley', 'Whenever You Need Somebody', 'Never Gonna Give You Up', '2021-01-31T14:03:00Z'],
      ]) + 'Rick Astley,Whenever You Need Somebody,Never Gonna Give You Up,sometime\nonly,three,fields\n';
    const report = await importFile(t, carol.token, { source: 'lastfm' }, file);
    expect(report).toMatchObject({ entriesRead: 6, matched: 3, duplicates: 1, refused: 2, unmatched: 0 });
    const plays = await recentPlays(t, carol);
    expect(plays.map((p) => [p.track.id, p.playedAt])).toEqual([
      ['crazy', '2021-01-31T14:12:00.000Z'],
      ['sun', '2021-01-31T14:08:00.000Z'],
      ['never', '2021-01-31T14:03:00.000Z'],
    ]);
  });

  it('imports Spotify streaming history: a skip is under 30 s and cut short, podcasts and private sessions are left out, device = platform', async () => {
    const dave = await makeUser(t);
    const file = spotifyHistory(
      [
        {
          ts: '2023-07-01T20:03:33Z',
          ms: 213_000,
          track: 'Never Gonna Give You Up',
          artist: 'Rick Astley',
          album: 'Whenever You Need Somebody',
          platform: 'ios',
        },
        // A short track played to its end is a play, not a skip.
        {
          ts: '2023-07-01T20:04:00Z',
          ms: 12_000,
          track: 'Something - 2019 Mix',
          artist: 'The Beatles',
          album: 'Abbey Road',
        },
        // Two minutes, then Next: a play.
        {
          ts: '2023-07-01T20:10:00Z',
          ms: 95_000,
          track: 'Crazy In Love',
          artist: 'Beyoncé',
          album: 'Dangerously In Love',
          skipped: true,
        },
        // Eight seconds, then Next: a skip.
        {
          ts: '2023-07-01T20:11:00Z',
          ms: 8_000,
          track: 'Here Comes the Sun',
          artist: 'The Beatles',
          album: 'Abbey Road',
          skipped: null,
          reasonEnd: 'fwdbtn',
        },
        {
          ts: '2023-07-01T20:20:00Z',
          ms: 200_000,
          track: 'Never Gonna Give You Up',
          artist: 'Rick Astley',
          incognito: true,
        },
        { ts: '2023-07-01T21:00:00Z', ms: 1_800_000, episode: 'Episode 12' },
      ],
      [
        {
          ts: 'not a date',
          ms_played: 1000,
          master_metadata_track_name: 'x',
          master_metadata_album_artist_name: 'y',
        },
        42,
      ],
    );
    const report = await importFile(t, dave.token, {}, file);
    expect(report).toMatchObject({
      status: 'done',
      source: 'spotify',
      takenAs: 'Spotify Extended Streaming History',
      entriesRead: 8,
      matched: 4,
      ignored: 2,
      refused: 2,
    });
    const plays = await recentPlays(t, dave);
    expect(plays.map((p) => [p.track.id, p.playedAt, p.device])).toEqual([
      ['crazy', '2023-07-01T20:08:25.000Z', 'Android OS 14 API 34 (Google, Pixel 8)'],
      ['something', '2023-07-01T20:03:48.000Z', 'Android OS 14 API 34 (Google, Pixel 8)'],
      ['never', '2023-07-01T20:00:00.000Z', 'ios'],
    ]);
    const csv = await (
      await t.call(`/api/stats/export?format=csv&userId=${dave.id}`, { token: t.adminToken })
    ).text();
    expect(csv.split('\n').filter((line) => line.includes(',skip,'))).toHaveLength(1);

    // Kept when asked for: the private session's stream.
    const erin = await makeUser(t);
    const kept = await importFile(t, erin.token, { keepIncognito: 'true' }, file);
    expect(kept).toMatchObject({ matched: 5, ignored: 1 });
  });

  it('lets a User import only for themselves, an Admin for anyone', async () => {
    const forBob = await upload(t, alice.token, { source: 'lastfm', userId: bob.id }, 'a,b,c,d\n');
    expect(forBob.status).toBe(401);
    expect((await problem(forBob)).code).toBe('forbidden_role');
    const byAdmin = await importFile(
      t,
      t.adminToken,
      { source: 'lastfm', userId: bob.id },
      'x,y,z,not a date\n',
    );
    expect(byAdmin).toMatchObject({ refused: 1 });
    const unknown = await upload(t, t.adminToken, { source: 'lastfm', userId: 'nobody' }, 'a,b,c,d\n');
    expect((await problem(unknown)).code).toBe('user_not_found');
  });

  it('refuses a bad source or a missing file with 400, and hides one user’s import from another', async () => {
    const bad = await upload(t, alice.token, { source: 'napster' }, 'x');
    expect(await problem(bad)).toMatchObject({ code: 'invalid_parameter', parameter: 'source' });
    const form = new FormData();
    form.set('source', 'lastfm');
    const noFile = await t.call('/api/stats/import', { method: 'POST', body: form, token: alice.token });
    expect(await problem(noFile)).toMatchObject({ code: 'invalid_parameter', parameter: 'file' });
    const started = await upload(t, alice.token, { source: 'lastfm' }, 'a,b,c,d\n');
    const { id } = (await started.json()) as { id: string };
    const asBob = await t.call(`/api/stats/import/${id}`, { token: bob.token });
    expect((await problem(asBob)).code).toBe('import_not_found');
    const asAdmin = await t.call(`/api/stats/import/${id}`, { token: t.adminToken });
    expect(asAdmin.status).toBe(200);
  });
});
