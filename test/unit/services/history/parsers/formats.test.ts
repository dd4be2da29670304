import { describe, expect, it } from 'vitest';
import {
  emptyZipReason,
  formatOfZipEntry,
  recognise,
} from '../../../../../server/services/history/parsers/formats.js';

describe('recognise', () => {
  it.each([
    { format: 'listenbrainz-lines', start: '{"listened_at": 1, "track_metadata": {}}\n' },
    { format: 'listenbrainz-array', start: '\uFEFF [\n  {"listened_at": 1, "track_metadata": {}}' },
    { format: 'spotify-extended', start: '[{"ts": "2023-01-01T00:00:00Z", "ms_played": 1' },
    {
      format: 'spotify-account',
      start: '[{"endTime": "2023-01-01 00:00", "artistName": "a", "trackName": "t", "msPlayed": 1}]',
    },
    {
      format: 'lastfm-ghan',
      start: '"uts","utc_time","artist","artist_mbid","album","album_mbid","track","track_mbid"\n',
    },
    { format: 'lastfm-benjaminbenben', start: 'artist,album,name,date\r\n' },
    { format: 'librefm-csv', start: 'Artist,Track,Album,Time\n' },
    { format: 'lastfm-csv', start: 'ARTIST,ALBUM,TITLE,DATE\n' },
    { format: 'lastfm-csv', start: 'Rick Astley,Whenever,Never,31 Jan 2021 14:03\n' },
  ])('tells $format from its first bytes $start', ({ format, start }) => {
    expect(recognise(start)).toBe(format);
  });

  it('uses the uploader’s hint only where the content does not say', () => {
    expect(recognise('[{"something": 1}]', 'spotify')).toBe('spotify-extended');
    expect(recognise('[{"something": 1}]', 'listenbrainz')).toBe('listenbrainz-array');
    expect(recognise('{"track_metadata": {}}', 'spotify')).toBe('listenbrainz-lines');
    expect(recognise('[{"something": 1}]')).toMatchObject({ empty: false });
  });

  it('says what a file that is not a history looks like', () => {
    expect(recognise(' \n')).toEqual({ empty: true, reason: 'The file is empty' });
    expect(recognise('[ ]')).toMatchObject({ empty: true });
    expect(recognise('{"recording_msid": "x", "score": 1}')).toMatchObject({
      reason: expect.stringMatching(/^This looks like ListenBrainz's feedback.jsonl/u) as string,
    });
    expect(
      recognise('[{"endTime": "x", "podcastName": "p", "episodeName": "e", "msPlayed": 1}]'),
    ).toMatchObject({
      reason: expect.stringMatching(/^This looks like Spotify's podcast history/u) as string,
    });
    expect(recognise('\u0000\u0001binary')).toMatchObject({ empty: false });
  });
});

describe('formatOfZipEntry', () => {
  it.each([
    ['listens/2024/3.jsonl', 'listenbrainz-lines'],
    ['export/listens/2010/12.jsonl', 'listenbrainz-lines'],
    ['Spotify Extended Streaming History/Streaming_History_Audio_2019-2021_3.json', 'spotify-extended'],
    ['MyData/endsong_0.json', 'spotify-extended'],
    ['Spotify Account Data/StreamingHistory_music_0.json', 'spotify-account'],
    ['MyData/StreamingHistory0.json', 'spotify-account'],
  ])('takes the entry %s as %s', (entry, format) => {
    expect(formatOfZipEntry(entry)).toBe(format);
  });

  it.each([
    'user.json',
    'feedback.jsonl',
    'pinned_recording.jsonl',
    'Spotify Account Data/StreamingHistory_podcast_0.json',
    'Spotify Extended Streaming History/Streaming_History_Video_2023.json',
    '__MACOSX/listens/2024/._3.jsonl',
  ])('passes over the entry %s', (entry) => {
    expect(formatOfZipEntry(entry)).toBeNull();
  });

  it('says why a ZIP of no listens is not imported', () => {
    expect(emptyZipReason(['user.json', 'feedback.jsonl'])).toMatch(
      /ListenBrainz's export without its listens/u,
    );
    expect(emptyZipReason(['Spotify Account Data/Userdata.json'])).toMatch(/Spotify's data without music/u);
    expect(emptyZipReason(['photos/a.jpg'])).toMatch(/^This ZIP holds no listening history/u);
  });
});
