import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { File as TagFile, MpegAudioFileSettings, TagTypes } from 'node-taglib-sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../factories/users.js';
import { copyFixtureLibrary } from '../support/fixture-library.js';
import { useTestServer } from '../support/server.js';
import { failsWith, ok, restUrl } from './support.js';
import { HAVE_XSD, xsdErrors } from './xsd.js';

/**
 * Lyrics from the music's own files: an MP3 with plain lyrics in its tags (ID3 USLT) and a FLAC
 * with a timed `.lrc` file beside it, through getLyrics (old API) and OpenSubsonic's
 * getLyricsBySongId.
 */
const ALBUM = join('Aurora Lane', 'Fixture Album');
const t = useTestServer(async () => {
  const { library } = await copyFixtureLibrary('melon-subsonic-lyrics-');
  MpegAudioFileSettings.defaultTagTypes = TagTypes.Id3v2;
  const mp3 = TagFile.createFromPath(join(library, ALBUM, '01 - Tone MP3.mp3'));
  mp3.tag.lyrics = 'First line of the tone\nSecond line of the tone';
  mp3.save();
  mp3.dispose();
  await writeFile(
    join(library, ALBUM, '02 - Tone FLAC.lrc'),
    '[ar:Aurora Lane]\n[ti:Tone FLAC]\n[offset:+250]\n[00:00.50]Rising\n[00:01.20][00:03.00]Falling & back\n',
  );
  return { config: { libraryDirs: [library] } };
});

let me: { username: string; password: string };
const ids: Record<string, string> = {};

beforeAll(async () => {
  const user = await makeUser(t);
  me = { username: user.username, password: user.password };
  const found = (await ok(t, me, 'search3', { query: 'tone', songCount: '10' })) as unknown as {
    searchResult3: { song: Array<{ id: string; title: string }> };
  };
  for (const song of found.searchResult3.song) ids[song.title] = song.id;
});

type Structured = {
  lyricsList: {
    structuredLyrics?: Array<{
      displayArtist: string;
      displayTitle: string;
      lang: string;
      offset: number;
      synced: boolean;
      line: Array<{ start?: number; value: string }>;
    }>;
  };
};

describe('getLyricsBySongId', () => {
  it('reads a timed .lrc beside the audio, with its offset and a line stamped twice', async () => {
    const answer = (await ok(t, me, 'getLyricsBySongId', { id: ids['Tone FLAC']! })) as unknown as Structured;
    expect(answer.lyricsList.structuredLyrics).toEqual([
      {
        displayArtist: 'Aurora Lane, The Static',
        displayTitle: 'Tone FLAC',
        lang: 'und',
        offset: 250,
        synced: true,
        line: [
          { start: 500, value: 'Rising' },
          { start: 1200, value: 'Falling & back' },
          { start: 3000, value: 'Falling & back' },
        ],
      },
    ]);
  });

  it('reads plain lyrics from the tags, unsynced', async () => {
    // A line without a start is `<line>text</line>` in XML, which the test's XML reader turns into a
    // bare string: only the JSON is compared here (the timed case above compares both).
    const answer = (await ok(
      t,
      me,
      'getLyricsBySongId',
      { id: ids['Tone MP3']! },
      { compare: false },
    )) as unknown as Structured;
    const [lyrics] = answer.lyricsList.structuredLyrics!;
    expect(lyrics).toMatchObject({ synced: false, offset: 0, displayTitle: 'Tone MP3' });
    expect(lyrics!.line).toEqual([{ value: 'First line of the tone' }, { value: 'Second line of the tone' }]);
  });

  it('answers an empty list for a song without lyrics, 70 for an unknown one, and is advertised', async () => {
    const none = (await ok(t, me, 'getLyricsBySongId', { id: ids['Tone WAV']! })) as unknown as Structured;
    expect(none.lyricsList.structuredLyrics ?? []).toEqual([]);
    await failsWith(t, me, 'getLyricsBySongId', { id: 'no-such-song' }, 70);
    const extensions = await ok(t, {}, 'getOpenSubsonicExtensions');
    expect(extensions.openSubsonicExtensions).toContainEqual({ name: 'songLyrics', versions: [1] });
  });
});

describe('getLyrics', () => {
  it('finds lyrics by artist and title, case ignored, as plain text; nothing found is an empty lyrics', async () => {
    const found = await ok(t, me, 'getLyrics', { artist: 'aurora lane', title: 'tone mp3' });
    expect(found.lyrics).toEqual({
      artist: 'Aurora Lane, The Static',
      title: 'Tone MP3',
      value: 'First line of the tone\nSecond line of the tone',
    });
    const timed = await ok(t, me, 'getLyrics', { title: 'Tone FLAC' });
    expect((timed.lyrics as { value: string }).value).toBe('Rising\nFalling & back\nFalling & back');
    expect((await ok(t, me, 'getLyrics', { artist: 'Someone Else', title: 'Tone MP3' })).lyrics).toEqual({});
    expect((await ok(t, me, 'getLyrics', {})).lyrics).toEqual({});
  });

  it.skipIf(!HAVE_XSD)(
    'validates against the 1.16.1 XSD (getLyricsBySongId by its envelope: it is OpenSubsonic’s)',
    async () => {
      const xml = async (method: string, params: Record<string, string>) =>
        (await fetch(restUrl(t, method, { u: me.username, p: me.password, ...params }))).text();
      expect(await xsdErrors(await xml('getLyrics', { artist: 'Aurora Lane', title: 'Tone MP3' }))).toBe('');
      expect(await xsdErrors(await xml('getLyrics', { title: 'nothing' }))).toBe('');
      expect(await xsdErrors(await xml('getLyricsBySongId', { id: ids['Tone FLAC']! }), ['lyricsList'])).toBe(
        '',
      );
    },
  );
});
