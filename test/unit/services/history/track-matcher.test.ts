import { describe, expect, it } from 'vitest';
import { normaliseArtist, normaliseTitle } from '../../../../server/services/history/normalise.js';
import { TrackMatcher } from '../../../../server/services/history/track-matcher.js';
import { ASTLEY_MBID, historyLibrary } from '../../../history/library.js';

const names = (
  artist: string,
  title: string,
  album: string | null = null,
  recordingMbid: string | null = null,
) => ({
  artist,
  title,
  album,
  recordingMbid,
});

describe('normalise', () => {
  it('folds case, accents, punctuation, credits and edition suffixes', () => {
    expect(normaliseArtist('Beyoncé feat. JAY-Z')).toBe('beyonce');
    expect(normaliseArtist('Beyonce ft Jay Z')).toBe('beyonce');
    expect(normaliseArtist('Simon & Garfunkel')).toBe('simon');
    expect(normaliseArtist('The Beatles')).toBe(normaliseArtist('Beatles'));
    expect(normaliseTitle('Here Comes the Sun (Remastered 2009)')).toBe('here comes the sun');
    expect(normaliseTitle('Here Comes the Sun - 2019 Mix')).toBe('here comes the sun');
    expect(normaliseTitle('Crazy in Love (feat. Jay-Z)')).toBe('crazy in love');
    expect(normaliseTitle("Don't Stop Me Now")).toBe('dont stop me now');
    // Not an edition: a different song stays different.
    expect(normaliseTitle('Mix Tape')).toBe('mix tape');
  });
});

describe('TrackMatcher', () => {
  const matcher = new TrackMatcher(historyLibrary());

  it('matches by recording MBID first, whatever the names say', () => {
    expect(matcher.match(names('Someone Else', 'Another Title', null, ASTLEY_MBID.toUpperCase()))?.id).toBe(
      'never',
    );
  });

  it('matches by artist + title + album, then artist + title, and credits any of the track’s artists', () => {
    expect(matcher.match(names('beyonce', 'CRAZY IN LOVE', 'Dangerously in Love'))?.id).toBe('crazy');
    expect(matcher.match(names('JAY-Z', 'Crazy in Love', 'Some Compilation'))?.id).toBe('crazy');
    expect(matcher.match(names('The Beatles', 'Here Comes The Sun', 'Abbey Road'))?.id).toBe('sun');
  });

  it('finds nothing for a recording the library lacks', () => {
    expect(matcher.match(names('Rick Astley', 'Together Forever'))).toBeUndefined();
    expect(matcher.match(names('Nobody', 'Never Gonna Give You Up'))).toBeUndefined();
  });
});
