import { describe, expect, it } from 'vitest';
import { normaliseArtist, normaliseTitle } from '../../../../server/services/history/normalise.js';
import { keyHash } from '../../../../server/services/history/hashed-keys.js';
import { TrackMatcher } from '../../../../server/services/history/track-matcher.js';
import { makeLibrary } from '../../../factories/library.js';
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

  it('tells apart the albums holding one recording, and takes the first by id for another album', () => {
    const library = makeLibrary({
      artists: [{ id: 'a', name: 'Queen' }],
      albums: [
        { id: 'opera', name: 'A Night at the Opera' },
        { id: 'hits', name: 'Greatest Hits (Deluxe Edition)' },
        { id: 'live', name: 'Live Killers' },
      ],
      tracks: [
        { id: 't3', name: 'Bohemian Rhapsody', albumId: 'live', artistIds: ['a'] },
        { id: 't1', name: 'Bohemian Rhapsody', albumId: 'opera', artistIds: ['a'] },
        { id: 't2', name: 'Bohemian Rhapsody (Remastered 2011)', albumId: 'hits', artistIds: ['a'] },
        { id: 't4', name: 'Bohemian Rhapsody', albumId: null, artistIds: ['a'] },
      ],
    });
    const queen = new TrackMatcher(library);
    expect(queen.match(names('Queen', 'Bohemian Rhapsody', 'Greatest Hits'))?.id).toBe('t2');
    expect(queen.match(names('Queen', 'Bohemian Rhapsody', 'live killers'))?.id).toBe('t3');
    expect(queen.match(names('Queen', 'Bohemian Rhapsody', 'Some Compilation'))?.id).toBe('t1');
    expect(queen.match(names('Queen', 'Bohemian Rhapsody'))?.id).toBe('t1');
    // An album name that folds to nothing names the track without an album.
    expect(queen.match(names('Queen', 'Bohemian Rhapsody', '!!!'))?.id).toBe('t4');
  });

  it('finds an artist whose name has punctuation by the whole credit, commas dropped or not', () => {
    const library = makeLibrary({
      artists: [
        { id: 'ewf', name: 'Earth, Wind & Fire' },
        { id: 'tyler', name: 'Tyler, The Creator' },
        { id: 'earth', name: 'Earth' },
      ],
      albums: [{ id: 'al' }],
      tracks: [
        { id: 'september', name: 'September', artistIds: ['ewf'] },
        { id: 'earfquake', name: 'EARFQUAKE', artistIds: ['tyler'] },
        { id: 'other', name: 'September', artistIds: ['earth'] },
      ],
    });
    const punctuated = new TrackMatcher(library);
    expect(punctuated.match(names('Earth Wind & Fire', 'September'))?.id).toBe('september');
    expect(punctuated.match(names('Earth, Wind & Fire', 'September'))?.id).toBe('september');
    expect(punctuated.match(names('Tyler The Creator', 'EARFQUAKE'))?.id).toBe('earfquake');
    expect(punctuated.match(names('Tyler, The Creator', 'Earfquake'))?.id).toBe('earfquake');
    // The main artist alone still finds a track credited to it.
    expect(punctuated.match(names('Earth feat. Someone', 'September'))?.id).toBe('other');
  });

  it('takes no track whose title or recording id only shares a hash with the listen’s', () => {
    // FNV-1a gives these pairs one hash (found by trying names until two met).
    const [heldTitle, askedTitle] = ['Song 2rnw', 'Song jpba'];
    const [heldMbid, askedMbid] = [
      'a00528ab-1111-4111-8111-111111111111',
      'a0099978-1111-4111-8111-111111111111',
    ];
    expect(keyHash(`queen\u0000${heldTitle.toLowerCase()}`)).toBe(
      keyHash(`queen\u0000${askedTitle.toLowerCase()}`),
    );
    expect(keyHash(heldMbid)).toBe(keyHash(askedMbid));
    const library = makeLibrary({
      artists: [{ id: 'a', name: 'Queen' }],
      albums: [{ id: 'al' }],
      tracks: [{ id: 't1', name: heldTitle, artistIds: ['a'] }],
    });
    library.tracks[0]!.recordingMbid = heldMbid;
    const matcher = new TrackMatcher(library);
    expect(matcher.match(names('Queen', askedTitle))).toBeUndefined();
    expect(matcher.match(names('Nobody', 'Nothing', null, askedMbid))).toBeUndefined();
    expect(matcher.match(names('Queen', heldTitle))?.id).toBe('t1');
    expect(matcher.match(names('Nobody', 'Nothing', null, heldMbid))?.id).toBe('t1');
  });
});
