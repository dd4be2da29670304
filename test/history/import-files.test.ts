import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser, type TestUser } from '../factories/users.js';
import { problem, useTestServer } from '../support/server.js';
import {
  ghanCsv,
  lastfmCsv,
  lastfmDate,
  listenBrainzLines,
  spotifyAccountHistory,
  spotifyHistory,
  type SampleListen,
} from './samples.js';
import { historyServer, importFile, recentPlays, upload, waitForImport } from './support.js';
import { declaringEntries, zipOf } from './zips.js';

/** The files people hold: the services' ZIPs and each Last.fm tool's CSV, recognised by content. */
const t = useTestServer(historyServer());

let alice: TestUser;
beforeAll(async () => {
  alice = await makeUser(t);
});

const NEVER: SampleListen = {
  at: '2024-03-01T10:00:00Z',
  artist: 'Rick Astley',
  title: 'Never Gonna Give You Up',
};
const SUN: SampleListen = { at: '2024-04-02T11:00:00Z', artist: 'The Beatles', title: 'Here Comes the Sun' };
const CRAZY: SampleListen = { at: '2024-04-03T12:00:00Z', artist: 'Beyoncé', title: 'Crazy in Love' };

describe('Importing the files the services hand out', () => {
  it("reads every listens/<year>/<month>.jsonl of ListenBrainz's export ZIP and passes over the rest", async () => {
    const user = await makeUser(t);
    const zip = await zipOf([
      ['user.json', JSON.stringify({ user_id: 1, username: 'someone' })],
      ['feedback.jsonl', '{"recording_msid": "x", "score": 1}\n'],
      ['pinned_recording.jsonl', '{"blurb_content": "hi", "pinned_until": 1}\n'],
      ['listens/2024/3.jsonl', listenBrainzLines([NEVER])],
      ['listens/2024/4.jsonl', listenBrainzLines([SUN, CRAZY], ['{not json'])],
    ]);
    const report = await importFile(t, user.token, {}, zip);
    expect(report).toMatchObject({ status: 'done', source: 'listenbrainz', matched: 3, refused: 1 });
    expect(report.takenAs).toContain("ListenBrainz's export ZIP (2 files");
    expect(report.problems).toEqual([
      { entry: 4, reason: 'the entry is not valid JSON', file: 'listens/2024/4.jsonl' },
    ]);
    expect(report.bytesTotal).toBeGreaterThan(0);
    expect(report.bytesRead).toBe(report.bytesTotal);
    expect((await recentPlays(t, user)).map((p) => p.track.id)).toEqual(['crazy', 'sun', 'never']);
  });

  it("reads Spotify's my_spotify_data.zip, Extended or Account data, and Account data's JSON alone", async () => {
    const extended = await zipOf([
      ['Spotify Extended Streaming History/ReadMeFirst_ExtendedStreamingHistory.pdf', 'pdf'],
      [
        'Spotify Extended Streaming History/Streaming_History_Audio_2023.json',
        spotifyHistory([
          {
            ts: '2023-07-01T20:03:33Z',
            ms: 213_000,
            track: 'Never Gonna Give You Up',
            artist: 'Rick Astley',
          },
        ]),
      ],
      [
        'Spotify Extended Streaming History/Streaming_History_Video_2023.json',
        '[{"ts": "2023-07-01T20:03:33Z"}]',
      ],
    ]);
    const user = await makeUser(t);
    expect(await importFile(t, user.token, {}, extended)).toMatchObject({
      status: 'done',
      source: 'spotify',
      matched: 1,
    });

    const account = spotifyAccountHistory([
      { end: '2023-08-01 20:05', artist: 'The Beatles', track: 'Here Comes the Sun', ms: 185_000 },
      { end: '2023-08-01 20:09', artist: 'Beyoncé', track: 'Crazy in Love', ms: 236_000 },
    ]);
    const accountZip = await zipOf([
      ['Spotify Account Data/Userdata.json', '{"username": "someone"}'],
      [
        'Spotify Account Data/StreamingHistory_podcast_0.json',
        '[{"endTime": "2023-08-01 19:00", "podcastName": "P", "episodeName": "E", "msPlayed": 1}]',
      ],
      ['Spotify Account Data/StreamingHistory_music_0.json', account],
    ]);
    const carol = await makeUser(t);
    const report = await importFile(t, carol.token, {}, accountZip);
    expect(report).toMatchObject({ status: 'done', source: 'spotify', matched: 2 });
    expect((await recentPlays(t, carol)).map((p) => [p.track.id, p.playedAt])).toEqual([
      ['crazy', '2023-08-01T20:05:04.000Z'],
      ['sun', '2023-08-01T20:01:55.000Z'],
    ]);
    // The bare JSON file, as Account data holds it: the same listens, now duplicates.
    expect(await importFile(t, carol.token, {}, account)).toMatchObject({
      status: 'done',
      takenAs: "Spotify's streaming history from its Account data",
      duplicates: 2,
    });
  });

  it('recognises each Last.fm tool by its header: lastfm.ghan.nl, lastfm-to-csv and Libre.fm', async () => {
    const user = await makeUser(t);
    const ghan = ghanCsv([
      {
        at: '2021-01-31T14:03:07Z',
        artist: 'Rick Astley',
        album: 'Whenever You Need Somebody',
        title: 'Never Gonna Give You Up',
      },
    ]);
    expect(await importFile(t, user.token, { source: 'lastfm' }, ghan)).toMatchObject({
      status: 'done',
      takenAs: 'Last.fm CSV of lastfm.ghan.nl',
      matched: 1,
      refused: 0,
    });
    const benjaminbenben = `artist,album,name,date\nThe Beatles,Abbey Road,Here Comes the Sun,${lastfmDate('2021-02-01T10:00:00Z')}\n`;
    expect(await importFile(t, user.token, {}, benjaminbenben)).toMatchObject({
      status: 'done',
      takenAs: 'Last.fm CSV of lastfm-to-csv (artist,album,name,date)',
      entriesRead: 1,
      matched: 1,
      refused: 0,
    });
    const libre = 'Artist,Track,Album,Time\nBeyoncé,Crazy in Love,Dangerously in Love,1612180800\n';
    expect(await importFile(t, user.token, {}, libre)).toMatchObject({
      status: 'done',
      matched: 1,
      unmatched: 0,
    });
    expect((await recentPlays(t, user)).map((p) => [p.track.id, p.playedAt])).toEqual([
      ['crazy', '2021-02-01T12:00:00.000Z'],
      ['sun', '2021-02-01T10:00:00.000Z'],
      ['never', '2021-01-31T14:03:07.000Z'],
    ]);
  });

  it('counts the same scrobbles from Last.fm (to the minute) and ListenBrainz (to the second) once, in either order', async () => {
    const seconds: SampleListen[] = [
      { at: '2024-03-01T10:00:27Z', artist: 'Rick Astley', title: 'Never Gonna Give You Up' },
      { at: '2024-03-01T10:05:41Z', artist: 'The Beatles', title: 'Here Comes the Sun' },
    ];
    const minutes = lastfmCsv([
      ['Rick Astley', '', 'Never Gonna Give You Up', '2024-03-01T10:00:00Z'],
      ['The Beatles', '', 'Here Comes the Sun', '2024-03-01T10:05:00Z'],
      // Another track in the same minute is another listen.
      ['Beyoncé', '', 'Crazy in Love', '2024-03-01T10:05:00Z'],
    ]);
    const first = await makeUser(t);
    expect(await importFile(t, first.token, {}, listenBrainzLines(seconds))).toMatchObject({ matched: 2 });
    expect(await importFile(t, first.token, {}, minutes)).toMatchObject({ matched: 1, duplicates: 2 });
    const second = await makeUser(t);
    expect(await importFile(t, second.token, {}, minutes)).toMatchObject({ matched: 3 });
    expect(await importFile(t, second.token, {}, listenBrainzLines(seconds))).toMatchObject({
      matched: 0,
      duplicates: 2,
    });
    expect(await recentPlays(t, second)).toHaveLength(3);
  });

  it('takes a file part without a Content-Type of its own, as Python requests sends it', async () => {
    const boundary = 'melon-test-boundary';
    const body =
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="scrobbles.csv"\r\n\r\n` +
      lastfmCsv([
        ['Rick Astley', 'Whenever You Need Somebody', 'Never Gonna Give You Up', '2022-05-05T05:05:00Z'],
      ]) +
      `\r\n--${boundary}--\r\n`;
    const response = await t.call('/api/stats/import', {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
      token: alice.token,
    });
    expect(response.status, await response.clone().text()).toBe(202);
    const { id } = (await response.json()) as { id: string };
    expect(await waitForImport(t, alice.token, id)).toMatchObject({ status: 'done', matched: 1 });
  });
});

describe('Refusing what is not a history, saying what to upload', () => {
  it('says an empty file is empty, and what a file of the export that holds no listens is', async () => {
    const empty = await upload(t, alice.token, {}, '');
    expect(await problem(empty)).toMatchObject({
      status: 400,
      code: 'import_empty',
      detail: 'The file is empty',
    });
    const userJson = await upload(
      t,
      alice.token,
      { source: 'listenbrainz' },
      '{"user_id": 1, "username": "someone"}',
    );
    const refused = await problem(userJson);
    expect(refused.code).toBe('import_unrecognised');
    expect(refused.detail).toMatch(/^This looks like ListenBrainz's user.json, not listens; upload the ZIP/u);
    const noListens = await upload(
      t,
      alice.token,
      {},
      await zipOf([
        ['user.json', '{}'],
        ['feedback.jsonl', ''],
      ]),
    );
    expect((await problem(noListens)).detail).toMatch(/ListenBrainz's export without its listens\/ folder/u);
  });

  it('ends a job whose every entry was refused as failed, with the reason', async () => {
    const report = await importFile(t, alice.token, {}, 'one,two\nthree,four\n');
    expect(report.status).toBe('failed');
    expect(report.error).toMatch(
      /^This looks like Last.fm CSV \(artist,album,title,date\), but none of its 2 entries/u,
    );
    expect(report.error).toMatch(/; upload the CSV of lastfm.ghan.nl/u);
  });

  it('refuses a ZIP bomb and a ZIP of too many entries before unpacking anything', async () => {
    const bomb = await zipOf([['listens/2024/1.jsonl', Buffer.alloc(20 * 1024 * 1024, 0x20)]]);
    const bombed = await problem(await upload(t, alice.token, {}, bomb));
    expect(bombed).toMatchObject({ status: 400, code: 'import_archive_refused' });
    expect(bombed.detail).toMatch(/more than 200 times.*ZIP bomb/u);
    const many = declaringEntries(
      await zipOf([['listens/2024/1.jsonl', listenBrainzLines([NEVER])]]),
      10_001,
    );
    expect((await problem(await upload(t, alice.token, {}, many))).detail).toBe(
      'The ZIP has 10001 entries; Melon reads ZIPs of at most 10000',
    );
  });
});

describe('GET /api/stats/import', () => {
  it('lists past imports with their reports, newest first: a member’s own, an Admin’s everyone’s', async () => {
    const dora = await makeUser(t);
    const erik = await makeUser(t);
    const first = await importFile(t, dora.token, {}, listenBrainzLines([NEVER]));
    const second = await importFile(t, dora.token, {}, 'one,two\n');
    const forErik = await importFile(t, t.adminToken, { userId: erik.id }, listenBrainzLines([SUN]));
    const list = async (token: string) => {
      const response = await t.call('/api/stats/import', { token });
      expect(response.status).toBe(200);
      return (await response.json()) as Array<{
        id: string;
        status: string;
        takenAs: string;
        error: string | null;
      }>;
    };
    const ofDora = await list(dora.token);
    expect(ofDora.map((j) => [j.id, j.status])).toEqual([
      [second.id, 'failed'],
      [first.id, 'done'],
    ]);
    expect(ofDora[0]!.error).toMatch(/^This looks like/u);
    expect((await list(erik.token)).map((j) => j.id)).toEqual([forErik.id]);
    const all = (await list(t.adminToken)).map((j) => j.id);
    expect(all).toEqual(expect.arrayContaining([first.id, second.id, forErik.id]));
  });
});

describe('GET /api/stats/unmatched', () => {
  it('groups the listens missing from the library by artist and album, the most first', async () => {
    const fay = await makeUser(t);
    const at = (minute: number) => `2024-05-01T10:${String(minute).padStart(2, '0')}:00Z`;
    const listens: SampleListen[] = [
      { at: at(1), artist: 'Radiohead', title: 'Airbag', album: 'OK Computer' },
      { at: at(2), artist: 'Radiohead', title: 'Paranoid Android', album: 'OK Computer' },
      { at: at(3), artist: 'radiohead', title: 'Karma Police', album: 'OK Computer (Remastered)' },
      { at: at(4), artist: 'Nobody', title: 'Not Here', album: 'Nothing' },
      { at: at(5), artist: 'Nobody', title: 'Not There' },
      NEVER,
    ];
    expect(await importFile(t, fay.token, {}, listenBrainzLines(listens))).toMatchObject({
      matched: 1,
      unmatched: 5,
    });
    const response = await t.call('/api/stats/unmatched', { token: fay.token });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      listens: 5,
      groups: [
        { artist: 'Radiohead', album: 'OK Computer', listens: 3 },
        { artist: 'Nobody', album: null, listens: 1 },
        { artist: 'Nobody', album: 'Nothing', listens: 1 },
      ],
    });
    const asOther = await t.call(`/api/stats/unmatched?userId=${fay.id}`, { token: alice.token });
    expect((await problem(asOther)).code).toBe('forbidden_role');
    const asAdmin = await t.call(`/api/stats/unmatched?userId=${fay.id}`, { token: t.adminToken });
    expect(((await asAdmin.json()) as { listens: number }).listens).toBe(5);
  });
});
