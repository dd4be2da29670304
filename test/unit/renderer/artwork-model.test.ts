import { describe, expect, it } from 'vitest';
import { caption, groupAlbums, slotsOf, type LibraryTrack } from '../../../renderer/album-model.js';
import {
  deleteWarning,
  groupsFor,
  summary,
  type ArtistItem,
  type Group,
  type SetItem,
  type TrackItem,
} from '../../../renderer/artwork-model.js';

const track: TrackItem = {
  id: 'tr/1',
  name: 'Song',
  artists: [
    { id: 'a1', name: 'Ann' },
    { id: 'a2', name: 'Bo' },
  ],
  artwork: [
    { pos: 0, type: 'front', width: 600, height: 600 },
    { pos: 1, width: null, height: null },
  ],
};
const artist: ArtistItem = { id: 'ar1', name: 'Ann', pfpCount: 2, bannerCount: 0 };
const playlist: SetItem = { id: 'pl 1', name: 'Mix', hasArtwork: true };

describe('artwork summary', () => {
  it('says what each kind of item has', () => {
    expect(summary(track)).toBe('Ann, Bo · 2 pictures');
    expect(summary({ ...track, artists: [], artwork: [track.artwork[0]!] })).toBe('1 picture');
    expect(summary(artist)).toBe('2 profile pictures, 0 banners');
    expect(summary(playlist)).toBe('has artwork');
    expect(summary({ ...playlist, hasArtwork: false })).toBe('no artwork');
  });
});

describe('artwork groupsFor', () => {
  /** The groups with each picture as one row: [src, caption, deletePath, deleteFields]. */
  const inRows = (groups: Group[]) =>
    groups.map((group) => ({
      ...group,
      pictures: group.pictures.map(({ src, caption, deletePath, deleteFields, ...more }) => [
        src,
        caption,
        deletePath,
        deleteFields,
        ...Object.keys(more),
      ]),
    }));

  it('shows the default artwork, with its upload, for the default kind or no item', () => {
    expect(inRows(groupsFor('default', null))).toEqual([
      {
        title: 'Default artwork (used where an item has none)',
        testid: 'art-group-default',
        pictures: [['/api/art/default', 'default', '/api/art/delete/default-art', {}]],
        upload: { path: '/api/art/upload/default-art', label: 'Upload default artwork' },
      },
    ]);
    expect(groupsFor('albums', null)).toEqual(groupsFor('default', null));
  });

  it("lists a track's embedded pictures by position, with no upload", () => {
    expect(inRows(groupsFor('albums', track))).toEqual([
      {
        title: 'Embedded pictures',
        testid: 'art-group-track',
        pictures: [
          [
            '/api/art/track/tr%2F1/0',
            'Picture 1 · front · 600×600',
            '/api/art/delete/track-art',
            { id: 'tr/1', pos: '0' },
          ],
          ['/api/art/track/tr%2F1/1', 'Picture 2', '/api/art/delete/track-art', { id: 'tr/1', pos: '1' }],
        ],
      },
    ]);
  });

  it("gives an artist's profile pictures and banners, each with an upload", () => {
    expect(inRows(groupsFor('artists', artist))).toEqual([
      {
        title: 'Profile pictures',
        testid: 'art-group-pfp',
        pictures: [
          ['/api/art/artist-pfp/ar1/0', 'Picture 1', '/api/art/delete/artist-pfp', { id: 'ar1', pos: '0' }],
          ['/api/art/artist-pfp/ar1/1', 'Picture 2', '/api/art/delete/artist-pfp', { id: 'ar1', pos: '1' }],
        ],
        upload: { path: '/api/art/upload/artist-pfp', id: 'ar1', label: 'Upload a profile picture' },
      },
      {
        title: 'Banners',
        testid: 'art-group-banner',
        pictures: [],
        upload: { path: '/api/art/upload/artist-banner', id: 'ar1', label: 'Upload a banner' },
      },
    ]);
  });

  it('gives a playlist or collection its one picture, if it has one', () => {
    expect(inRows(groupsFor('playlists', playlist))).toEqual([
      {
        title: 'Artwork',
        testid: 'art-group-playlist',
        pictures: [['/api/art/playlist/pl%201', 'artwork', '/api/art/delete/playlist-art', { id: 'pl 1' }]],
        upload: { path: '/api/art/upload/playlist-art', id: 'pl 1', label: 'Upload playlist artwork' },
      },
    ]);
    const [collection] = groupsFor('collections', { ...playlist, hasArtwork: false });
    expect(collection).toMatchObject({
      testid: 'art-group-collection',
      pictures: [],
      upload: { path: '/api/art/upload/collection-art', label: 'Upload collection artwork' },
    });
  });
});

describe('artwork deleteWarning', () => {
  it('warns that a track picture leaves the audio file itself', () => {
    const [trackGroup] = groupsFor('albums', track);
    expect(deleteWarning(trackGroup!.pictures[0]!)).toMatch(/audio file itself/);
    const [defaultGroup] = groupsFor('default', null);
    expect(deleteWarning(defaultGroup!.pictures[0]!)).toMatch(/removed from the server/);
  });
});

describe('album-wide picture slots', () => {
  const trackOf = (id: string, types: string[]): LibraryTrack => ({
    id,
    name: id,
    album: { id: 'al', name: 'Album' },
    artists: [{ id: 'ar', name: 'Ann' }],
    artwork: types.map((type, pos) => ({ pos, type })),
  });

  it('groups tracks by album and matches pictures by position, named by their most common kind', () => {
    const [album] = groupAlbums([
      trackOf('mp3', ['front cover', 'back cover']),
      trackOf('m4a', ['front cover', 'other']),
      trackOf('ogg', ['front cover', 'back cover']),
      trackOf('wav', []),
    ]);
    expect(album).toMatchObject({ name: 'Album', pictures: 6, coverTrack: 'm4a', artists: 'Ann' });
    expect(slotsOf(album!)).toEqual([
      { pos: 0, type: 'front cover', trackIds: ['m4a', 'mp3', 'ogg'] },
      { pos: 1, type: 'back cover', trackIds: ['m4a', 'mp3', 'ogg'] },
    ]);
    expect(caption({ pos: 1, type: 'back cover', width: 48, height: 32 })).toBe(
      'Picture 2 · back cover · 48×32',
    );
  });

  it('puts tracks without an album last', () => {
    const loose = { ...trackOf('x', []), album: null };
    expect(groupAlbums([loose, trackOf('y', [])]).map((album) => album.name)).toEqual([
      'Album',
      'Tracks without an album',
    ]);
  });
});
