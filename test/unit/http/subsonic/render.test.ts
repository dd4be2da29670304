import { describe, expect, it } from 'vitest';
import { envelope, render, renderItem } from '../../../../server/http/subsonic/render.js';
import { normalise, parseXmlAnswer } from '../../../subsonic/support.js';

const awkward = 'AC/DC & "Friends" <live> \'97\ttab\nline — ß 🎵';

describe('Subsonic rendering', () => {
  it('writes scalars as attributes, objects as elements, lists as repeated elements, value as text', () => {
    const body = envelope('ok', '1.2.3', {
      album: {
        id: 'a1',
        name: awkward,
        songCount: 2,
        isCompilation: false,
        song: [
          { id: 's1', title: 'One', genres: [{ name: 'Rock' }] },
          { id: 's2', title: 'Two', genres: [] },
        ],
      },
      genres: { genre: [{ songCount: 3, albumCount: 1, value: 'Rock & Roll' }] },
    });
    const xml = render('xml', body).text;
    expect(xml).toContain('<genre songCount="3" albumCount="1">Rock &amp; Roll</genre>');
    // An element whose lists are empty has no children: it closes itself.
    expect(xml).toContain(
      '<song id="s1" title="One"><genres name="Rock"/></song><song id="s2" title="Two"/>',
    );
    expect(xml).toContain('name="AC/DC &amp; &quot;Friends&quot; &lt;live&gt; \'97&#9;tab&#10;line — ß 🎵"');
    expect(parseXmlAnswer(xml)).toEqual(normalise(body));
    const json = JSON.parse(render('json', body).text) as { 'subsonic-response': unknown };
    expect(json['subsonic-response']).toEqual(body);
  });

  it('drops characters XML cannot carry instead of writing a broken document', () => {
    const xml = render(
      'xml',
      envelope('ok', '1', { song: { id: 'x', title: 'a\u0000b\u001Fc\uD800d' } }),
    ).text;
    expect(xml).toContain('title="abcd"');
    const text = render('xml', envelope('ok', '1', { genre: { value: 'x\u0001<\uDFFFy 🎵' } })).text;
    expect(text).toContain('<genre>x&lt;y 🎵</genre>');
    expect(parseXmlAnswer(xml)).toMatchObject({ song: { title: 'abcd' } });
  });

  it('carries the OpenSubsonic envelope in both forms', () => {
    const body = envelope('failed', '0.1.0', { error: { code: 40, message: 'Wrong username or password' } });
    expect(body).toEqual({
      status: 'failed',
      version: '1.16.1',
      type: 'melon',
      serverVersion: '0.1.0',
      openSubsonic: true,
      error: { code: 40, message: 'Wrong username or password' },
    });
    expect(render('xml', body).text).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<subsonic-response xmlns="http:\/\/subsonic.org\/restapi" status="failed" version="1.16.1" type="melon" serverVersion="0.1.0" openSubsonic="true"><error code="40" message="Wrong username or password"\/><\/subsonic-response>$/,
    );
  });

  it('writes one item of a list as it stands inside the whole answer, in both forms', () => {
    const items = [
      { id: 'a1', name: awkward, starred: undefined, albumCount: 2 },
      { id: 'a2', name: 'Plain', albumCount: 0 },
    ];
    for (const format of ['xml', 'json'] as const) {
      const whole = render(format, envelope('ok', '1', { artists: { artist: items } })).text;
      const pieces = items.map((item) => renderItem(format, 'artist', item));
      expect(whole).toContain(format === 'json' ? `[${pieces.join(',')}]` : pieces.join(''));
    }
  });
});
