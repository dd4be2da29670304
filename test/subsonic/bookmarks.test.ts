import { beforeAll, describe, expect, it } from 'vitest';
import { fakeScanner, makeLibrary } from '../factories/library.js';
import { makeUser, type TestUser } from '../factories/users.js';
import { useTestServer } from '../support/server.js';
import { failsWith, ok, restUrl, type Credentials } from './support.js';
import { xsdErrors } from './xsd.js';

/**
 * Bookmarks: a member leaves an audiobook at 12:34 on the phone and picks it up at that place on the
 * desktop. Each member has their own; a bookmark of a track the library no longer has is not listed.
 */
const scanner = fakeScanner(
  makeLibrary({
    artists: [{ id: 'ar1', name: 'Story Reader' }],
    albums: [{ id: 'al1', name: 'The Long Book', artistIds: ['ar1'] }],
    tracks: [
      { id: 't1', name: 'Chapter One', albumId: 'al1', artistIds: ['ar1'] },
      { id: 't2', name: 'Chapter Two', albumId: 'al1', artistIds: ['ar1'] },
    ],
  }),
);
const t = useTestServer({ scanner });

let alex: TestUser;
let sam: TestUser;
const as = (user: TestUser): Credentials => ({ username: user.username, password: user.password });

interface BookmarkAnswer {
  position: number;
  username: string;
  comment?: string;
  created: string;
  changed: string;
  entry: { id: string; title: string };
}
const bookmarksOf = async (user: TestUser) =>
  ((await ok(t, as(user), 'getBookmarks')) as unknown as { bookmarks: { bookmark?: BookmarkAnswer[] } })
    .bookmarks.bookmark ?? [];

beforeAll(async () => {
  alex = await makeUser(t, { username: 'alex' });
  sam = await makeUser(t, { username: 'sam' });
});

describe('bookmarks', () => {
  it('keeps a position and a comment in a track, and lists it with the track', async () => {
    await ok(t, as(alex), 'createBookmark', { id: 't1', position: '754000', comment: 'fell asleep here' });
    const [bookmark, ...others] = await bookmarksOf(alex);
    expect(others).toEqual([]);
    expect(bookmark).toMatchObject({
      position: 754000,
      username: 'alex',
      comment: 'fell asleep here',
      entry: { id: 't1', title: 'Chapter One' },
    });
    expect(bookmark!.created).toBe(bookmark!.changed);
    const xml = await (
      await fetch(restUrl(t, 'getBookmarks', { u: alex.username, p: alex.password }))
    ).text();
    expect(await xsdErrors(xml)).toBe('');
  });

  it('moves the bookmark when the same track is bookmarked again, keeping when it was made', async () => {
    const before = (await bookmarksOf(alex)).find((bookmark) => bookmark.entry.id === 't1')!;
    t.clock.advance(60_000);
    await ok(t, as(alex), 'createBookmark', { id: 't1', position: '800000' });
    const after = await bookmarksOf(alex);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ position: 800000, created: before.created });
    expect(after[0]!.comment).toBeUndefined();
    expect(Date.parse(after[0]!.changed) - Date.parse(before.created)).toBe(60_000);
  });

  it("keeps each member's bookmarks to themselves", async () => {
    expect(await bookmarksOf(sam)).toEqual([]);
    await ok(t, as(sam), 'createBookmark', { id: 't2', position: '1000' });
    expect((await bookmarksOf(sam)).map((bookmark) => bookmark.entry.id)).toEqual(['t2']);
    expect((await bookmarksOf(alex)).map((bookmark) => bookmark.entry.id)).toEqual(['t1']);
  });

  it('refuses a bookmark of a track that is not there, or without a position, and keeps nothing', async () => {
    await failsWith(t, as(sam), 'createBookmark', { id: 'nothing', position: '10' }, 70);
    await failsWith(t, as(sam), 'createBookmark', { id: 't1' }, 10);
    expect(await failsWith(t, as(sam), 'createBookmark', { id: 't1', position: '-5' }, 0)).toMatch(
      /position/,
    );
    expect(
      await failsWith(
        t,
        as(sam),
        'createBookmark',
        { id: 't1', position: '5', comment: 'x'.repeat(1001) },
        0,
      ),
    ).toMatch(/comment/);
    expect((await bookmarksOf(sam)).map((bookmark) => bookmark.entry.id)).toEqual(['t2']);
  });

  it('deletes a bookmark, and deleting one that is not there changes nothing', async () => {
    await ok(t, as(sam), 'deleteBookmark', { id: 't2' });
    expect(await bookmarksOf(sam)).toEqual([]);
    await ok(t, as(sam), 'deleteBookmark', { id: 't2' });
    expect((await bookmarksOf(alex)).map((bookmark) => bookmark.entry.id)).toEqual(['t1']);
  });

  it('still has the bookmarks after a restart', async () => {
    Object.assign(t, await t.restart());
    expect(await bookmarksOf(alex)).toMatchObject([{ position: 800000, entry: { id: 't1' } }]);
  });
});
