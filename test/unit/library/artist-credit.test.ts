import { describe, expect, it } from 'vitest';
import { separateArtists, splitCredit } from '../../../server/library/artist-credit.js';

const credited = (credit: string, mbidCount = 0) => separateArtists({ credit, listed: [credit], mbidCount });

describe('artists as credited', () => {
  it('keeps a name with & or a comma in it as one artist', () => {
    expect(credited('Simon & Garfunkel')).toEqual(['Simon & Garfunkel']);
    expect(credited('Earth, Wind & Fire')).toEqual(['Earth, Wind & Fire']);
    expect(credited('Tyler, The Creator')).toEqual(['Tyler, The Creator']);
    expect(credited('AC/DC')).toEqual(['AC/DC']);
  });

  it('splits a credit only where no name has the separator: ; / feat. ft.', () => {
    expect(splitCredit('A; B / C ft. D & E feat. F')).toEqual(['A', 'B', 'C', 'D & E', 'F']);
    expect(credited('Beyoncé feat. JAY-Z')).toEqual(['Beyoncé', 'JAY-Z']);
    expect(credited('Daft Punk;daft punk; ')).toEqual(['Daft Punk']);
    expect(credited('Aurora Lane FT. The Static')).toEqual(['Aurora Lane', 'The Static']);
  });

  it('takes the separate artists from the ARTISTS list when the file has one', () => {
    expect(
      separateArtists({
        credit: 'Simon & Garfunkel',
        listed: ['Paul Simon', 'Art Garfunkel'],
        mbidCount: 2,
      }),
    ).toEqual(['Paul Simon', 'Art Garfunkel']);
    // A one-value ARTISTS tag other than the credit names the artist too.
    expect(separateArtists({ credit: 'The Boss', listed: ['Bruce Springsteen'], mbidCount: 0 })).toEqual([
      'Bruce Springsteen',
    ]);
    // Without an ARTIST tag, the list alone.
    expect(separateArtists({ credit: null, listed: ['A', 'B; C'], mbidCount: 0 })).toEqual(['A', 'B', 'C']);
  });

  it('lets the MusicBrainz artist ids say how many artists a credit with & or a comma names', () => {
    expect(credited('Beyoncé & JAY-Z', 2)).toEqual(['Beyoncé', 'JAY-Z']);
    expect(credited('Crosby, Stills & Nash', 3)).toEqual(['Crosby', 'Stills', 'Nash']);
    expect(credited('Simon & Garfunkel', 1)).toEqual(['Simon & Garfunkel']);
    // Ids that do not fit any reading of the credit leave it to the unambiguous separators.
    expect(credited('Earth, Wind & Fire', 2)).toEqual(['Earth, Wind & Fire']);
    expect(credited('A feat. B', 1)).toEqual(['A feat. B']);
  });

  it('names nobody for an empty credit', () => {
    expect(separateArtists({ credit: null, listed: [], mbidCount: 0 })).toEqual([]);
    expect(separateArtists({ credit: ' ', listed: [' '], mbidCount: 0 })).toEqual([]);
  });
});
