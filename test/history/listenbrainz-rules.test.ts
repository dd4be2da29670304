import { beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock.js';
import { fakeScanner } from '../factories/library.js';
import { makeUser, type TestUser } from '../factories/users.js';
import { useTestServer } from '../support/server.js';
import { historyLibrary } from './library.js';
import { listenBrainz, scrobblerKey } from './support.js';

/**
 * ListenBrainz's own rules for submit-listens, case by case as its server's tests
 * (listenbrainz/tests/integration/test_api.py) expect them: the status, and the message where its
 * tests assert one. The documents are written here after its documented JSON format and the shape
 * of its test data; none of its files is copied.
 */
const NOW = Date.parse('2026-06-15T12:00:00Z');
const NOW_S = Math.floor(NOW / 1000);
const clock = new ManualClock(NOW);
const t = useTestServer({ scanner: fakeScanner(historyLibrary()), clock });
let user: TestUser;
let key: string;

beforeAll(async () => {
  user = await makeUser(t);
  key = await scrobblerKey(t, user);
});

type Listen = Record<string, unknown> & { track_metadata?: Record<string, unknown> | null };

let next = 1486449409;
/** A listen as its test data writes them: a 2017 time of its own, names, a release. */
function listen(info: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): Listen {
  next += 1;
  return {
    listened_at: next,
    track_metadata: {
      artist_name: 'Kanye West',
      track_name: 'Fade',
      release_name: 'The Life of Pablo',
      additional_info: { music_service: 'spotify.com', ...info },
      ...meta,
    },
  };
}

const nowPlaying = (info: Record<string, unknown> = {}): Listen => {
  const item = listen(info);
  delete item.listened_at;
  return item;
};

const doc = (listenType: string, payload: unknown) => ({ listen_type: listenType, payload });

async function submit(body: unknown, raw?: string) {
  const response = await listenBrainz(t, 'submit-listens', {
    token: key,
    ...(raw === undefined ? { body } : { raw }),
  });
  return { status: response.status, body: (await response.json()) as { code?: number; error?: string } };
}

const uuid = (n: number) => `${String(n).padStart(8, '0')}-0000-4000-8000-000000000000`;

describe('POST /listenbrainz/1/submit-listens, as ListenBrainz answers', () => {
  const accepted: Array<[string, () => unknown]> = [
    ['a valid single', () => doc('single', [listen()])],
    ['a valid import of two', () => doc('import', [listen(), listen()])],
    ['a valid playing_now', () => doc('playing_now', [nowPlaying()])],
    ['playing_now with duration', () => doc('playing_now', [nowPlaying({ duration: 1 })])],
    ['playing_now with duration_ms', () => doc('playing_now', [nowPlaying({ duration_ms: 1000 })])],
    ['a float duration_ms (valid_duration)', () => doc('import', [listen({ duration_ms: 1222.6 })])],
    ['a duration_ms as a numeric string', () => doc('import', [listen({ duration_ms: '300000' })])],
    [
      'a listened_at as a numeric string',
      () => doc('single', [{ ...listen(), listened_at: String(NOW_S - 10) }]),
    ],
    ['a clock 59 minutes fast', () => doc('single', [{ ...listen(), listened_at: NOW_S + 59 * 60 }])],
    ['an empty release_name (stripped)', () => doc('single', [listen({}, { release_name: '   ' })])],
    [
      'empty MBIDs ([], "", null), dropped',
      () =>
        doc('import', [
          listen({ artist_mbids: [uuid(1), ''], recording_mbid: '', release_mbid: null, work_mbids: [] }),
        ]),
    ],
    [
      'additional_info of the scrobbler’s own',
      () => doc('single', [listen({ best_song: 'yes', nested: { info: 1 }, tags: ['a', 'b'] })]),
    ],
  ];
  for (const [name, body] of accepted) {
    it(`takes ${name}: 200`, async () => {
      expect(await submit(body())).toEqual({ status: 200, body: { status: 'ok' } });
    });
  }

  const refused: Array<[string, () => unknown, string | null]> = [
    ['zero listens', () => doc('import', []), 'JSON document does not contain any listens'],
    [
      'a payload that is not a list',
      () => doc('single', {}),
      'The payload in the JSON document should be a list of listens.',
    ],
    ['no listen_type', () => ({ payload: [listen()] }), 'Invalid JSON document submitted.'],
    [
      'a bad listen_type',
      () => doc('sometimes', [listen()]),
      'JSON document requires a valid listen_type key.',
    ],
    [
      'two listens for a single',
      () => doc('single', [listen(), listen()]),
      'JSON document contains more than listen for a single/playing_now. It should contain only one.',
    ],
    ['two listens for playing_now', () => doc('playing_now', [nowPlaying(), nowPlaying()]), null],
    [
      'playing_now with listened_at',
      () => doc('playing_now', [listen()]),
      'JSON document must not contain listened_at while submitting playing_now.',
    ],
    [
      '1002 listens',
      () =>
        doc(
          'import',
          Array.from({ length: 1002 }, () => listen()),
        ),
      null,
    ],
    [
      'an empty track_name',
      () => doc('single', [listen({}, { track_name: '' })]),
      'field track_metadata.track_name is empty.',
    ],
    [
      'an empty artist_name',
      () => doc('single', [listen({}, { artist_name: '' })]),
      'field track_metadata.artist_name is empty.',
    ],
    [
      'a release_name that is a number',
      () => doc('single', [listen({}, { release_name: 20 })]),
      'track_metadata.release_name must be a single string.',
    ],
    ['a track_name that is a list', () => doc('single', [listen({}, { track_name: [] })]), null],
    [
      'artist_name as a list',
      () => doc('single', [listen({}, { artist_name: ['Kanye West', 'Rihanna'] })]),
      'track_metadata.artist_name must be a single string.',
    ],
    ['an artist_name of null', () => doc('single', [listen({}, { artist_name: null })]), null],
    [
      '51 tags',
      () => doc('single', [listen({ tags: Array.from({ length: 51 }, (_, i) => `tag${i}`) })]),
      'JSON document may not contain more than 50 items in track_metadata.additional_info.tags.',
    ],
    [
      'a tag of 65 characters',
      () => doc('single', [listen({ tags: ['x'.repeat(65)] })]),
      'JSON document may not contain track_metadata.additional_info.tags longer than 64 characters.',
    ],
    [
      'no track_metadata',
      () => doc('single', [{ listened_at: NOW_S - 100 }]),
      'JSON document must contain the key track_metadata at the top level.',
    ],
    [
      'a null track_metadata',
      () => doc('single', [{ listened_at: NOW_S - 100, track_metadata: null }]),
      'JSON document may not have track_metadata with null value.',
    ],
    [
      'a null listened_at',
      () => doc('single', [{ ...listen(), listened_at: null }]),
      'JSON document must contain an int value for listened_at.',
    ],
    [
      'an invalid release_mbid',
      () => doc('single', [listen({ release_mbid: 'not-a-uuid' })]),
      'release_mbid MBID format invalid.',
    ],
    [
      'an invalid artist_mbid',
      () => doc('single', [listen({ artist_mbids: [uuid(2), 'x'] })]),
      'artist_mbids MBID format invalid.',
    ],
    [
      'an invalid recording_mbid',
      () => doc('single', [listen({ recording_mbid: '12345' })]),
      'recording_mbid MBID format invalid.',
    ],
    [
      'both duration and duration_ms',
      () => doc('single', [listen({ duration: 300, duration_ms: 300000 })]),
      'JSON document should not contain both duration and duration_ms.',
    ],
    [
      'a null duration',
      () => doc('import', [listen({ duration: null })]),
      'Value for duration is invalid, should be a positive integer.',
    ],
    [
      'a duration over 24 days',
      () => doc('import', [listen({ duration: 5345029000 })]),
      'Value for duration is too large, max permitted value is 2073600',
    ],
    [
      'a duration_ms over 24 days',
      () => doc('import', [listen({ duration_ms: 53450290000 })]),
      'Value for duration_ms is too large, max permitted value is 2073600000',
    ],
    [
      'a unicode null',
      () => doc('single', [listen({}, { track_name: '\u0000Fade' })]),
      '\u0000Fade contains a unicode null',
    ],
    [
      'a listened_at in nanoseconds',
      () => doc('single', [{ ...listen(), listened_at: NOW_S * 10 ** 9 }]),
      'Value for key listened_at is too high.',
    ],
    [
      'a clock an hour fast',
      () => doc('single', [{ ...listen(), listened_at: NOW_S + 3600 }]),
      'Value for key listened_at is too high.',
    ],
    [
      'a listened_at before Last.fm',
      () => doc('single', [{ ...listen(), listened_at: 1033400000 }]),
      'Value for key listened_at is too low. listened_at timestamp should be greater than 1033410600 (2002-10-01 00:00:00 UTC).',
    ],
    [
      'a key beside listened_at and track_metadata',
      () => doc('single', [{ ...listen(), user_name: 'someone' }]),
      'JSON document may only contain listened_at and track_metadata top level keys',
    ],
  ];
  for (const [name, body, message] of refused) {
    it(`refuses ${name}: 400${message ? ' with its message' : ''}`, async () => {
      const answer = await submit(body());
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe(400);
      if (message) expect(answer.body.error).toBe(message);
    });
  }

  it('refuses a top level that is not an object, and JSON with NaN', async () => {
    for (const body of [1, false, null, [2, 3], 'foobar']) {
      expect(await submit(body)).toEqual({
        status: 400,
        body: {
          code: 400,
          error: 'Invalid JSON document submitted. Top level of JSON document should be a json object.',
        },
      });
    }
    expect(
      (await submit(undefined, '{"listen_type": "single", "payload": [{"listened_at": NaN}]}')).status,
    ).toBe(400);
  });

  it('refuses a listen over 10240 bytes, and a body over 10,240,000 bytes, with 400', async () => {
    const big = listen(
      Object.fromEntries(
        Array.from({ length: 600 }, (_, i) => [`this is a big key #${i}`, `big value #${i}`]),
      ),
    );
    const one = await submit(doc('import', [big]));
    expect(one.status).toBe(400);
    expect(one.body.error).toContain('JSON document is too large.');
    const huge = await submit(
      doc(
        'import',
        Array.from({ length: 1000 }, () => big),
      ),
    );
    expect(huge.status).toBe(400);
    expect(huge.body.error).toContain('Payload too large.');
  });

  it('lets playing_now lapse at the duration the scrobbler gave', async () => {
    const nowPlayingOf = () => t.server.services.nowPlaying.list().filter((e) => e.userId === user.id);
    const known = {
      track_metadata: {
        artist_name: 'Rick Astley',
        track_name: 'Never Gonna Give You Up',
        additional_info: { duration: 60 },
      },
    };
    expect((await submit(doc('playing_now', [known]))).status).toBe(200);
    expect(nowPlayingOf()).toHaveLength(1);
    clock.advance(59_000);
    expect(nowPlayingOf()).toHaveLength(1);
    clock.advance(1_000);
    expect(nowPlayingOf()).toHaveLength(0);
  });
});
