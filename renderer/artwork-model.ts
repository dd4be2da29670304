import type { Collection } from '../server/contract/collections.js';
import type { Artist, Track } from '../server/contract/library.js';
import { pictureLabel, type ArtInfo } from './album-model.js';
import { count } from './plural.js';

/**
 * The artwork page's model, without the DOM: what the API returns per kind of item, and which
 * pictures (with their image, caption and delete call) and uploads the page shows for one.
 */
export type Kind = 'albums' | 'artists' | 'playlists' | 'collections' | 'default';

/** A track as the page reads it: its name, artists and pictures (their captions). */
export interface TrackItem extends Pick<Track, 'id' | 'name'> {
  artists?: Track['artists'];
  artwork: ArtInfo[];
}
export type ArtistItem = Pick<Artist, 'id' | 'name' | 'pfpCount' | 'bannerCount'>;
export type SetItem = Pick<Collection, 'id' | 'name' | 'hasArtwork'>;
export type Item = TrackItem | ArtistItem | SetItem;

/** One picture the page can show and delete. */
export interface Picture {
  /** GET path of the image. */
  src: string;
  caption: string;
  deletePath: string;
  deleteFields: Record<string, string>;
}

/** A group of pictures of one item, with an optional upload. */
export interface Group {
  title: string;
  testid: string;
  pictures: Picture[];
  upload?: { path: string; id?: string; label: string };
}

export const KINDS: { kind: Kind; label: string }[] = [
  { kind: 'albums', label: 'Albums' },
  { kind: 'artists', label: 'Artists' },
  { kind: 'playlists', label: 'Playlists' },
  { kind: 'collections', label: 'Collections' },
  { kind: 'default', label: 'Default artwork' },
];

/** The line under an item's name in the result list. */
export function summary(item: Item): string {
  if ('artwork' in item) {
    const artists = (item.artists ?? []).map((artist) => artist.name).join(', ');
    return `${artists ? `${artists} · ` : ''}${count(item.artwork.length, 'picture', 'pictures')}`;
  }
  if ('pfpCount' in item)
    return `${count(item.pfpCount, 'profile picture', 'profile pictures')}, ${count(item.bannerCount, 'banner', 'banners')}`;
  return item.hasArtwork ? 'has artwork' : 'no artwork';
}

/** The picture groups of `item` (null: the default artwork, shown where an item has none). */
export function groupsFor(kind: Kind, item: Item | null): Group[] {
  const enc = encodeURIComponent;
  if (kind === 'default' || item === null) {
    return [
      {
        title: 'Default artwork (used where an item has none)',
        testid: 'art-group-default',
        pictures: [
          {
            src: '/api/art/default',
            caption: 'default',
            deletePath: '/api/art/delete/default-art',
            deleteFields: {},
          },
        ],
        upload: { path: '/api/art/upload/default-art', label: 'Upload default artwork' },
      },
    ];
  }
  if ('artwork' in item) {
    return [
      {
        title: 'Embedded pictures',
        testid: 'art-group-track',
        pictures: item.artwork.map((art) => ({
          src: `/api/art/track/${enc(item.id)}/${art.pos}`,
          caption: [
            pictureLabel(art.pos),
            art.type,
            art.width && art.height ? `${art.width}×${art.height}` : null,
          ]
            .filter(Boolean)
            .join(' · '),
          deletePath: '/api/art/delete/track-art',
          deleteFields: { id: item.id, pos: String(art.pos) },
        })),
      },
    ];
  }
  if (kind === 'artists' && 'pfpCount' in item) {
    const list = (count: number, path: string, kindName: 'artist-pfp' | 'artist-banner'): Picture[] =>
      Array.from({ length: count }, (_, pos) => ({
        src: `/api/art/${path}/${enc(item.id)}/${pos}`,
        caption: pictureLabel(pos),
        deletePath: `/api/art/delete/${kindName}`,
        deleteFields: { id: item.id, pos: String(pos) },
      }));
    return [
      {
        title: 'Profile pictures',
        testid: 'art-group-pfp',
        pictures: list(item.pfpCount, 'artist-pfp', 'artist-pfp'),
        upload: { path: '/api/art/upload/artist-pfp', id: item.id, label: 'Upload a profile picture' },
      },
      {
        title: 'Banners',
        testid: 'art-group-banner',
        pictures: list(item.bannerCount, 'artist-banner', 'artist-banner'),
        upload: { path: '/api/art/upload/artist-banner', id: item.id, label: 'Upload a banner' },
      },
    ];
  }
  const single = kind === 'playlists' ? 'playlist' : 'collection';
  const set = item as SetItem;
  return [
    {
      title: 'Artwork',
      testid: `art-group-${single}`,
      pictures: set.hasArtwork
        ? [
            {
              src: `/api/art/${single}/${enc(set.id)}`,
              caption: 'artwork',
              deletePath: `/api/art/delete/${single}-art`,
              deleteFields: { id: set.id },
            },
          ]
        : [],
      upload: { path: `/api/art/upload/${single}-art`, id: set.id, label: `Upload ${single} artwork` },
    },
  ];
}

/** What deleting `picture` cannot undo: a track's picture is removed from its audio file. */
export function deleteWarning(picture: Picture): string {
  return picture.deletePath.endsWith('track-art')
    ? 'It is removed from the audio file itself. This cannot be undone.'
    : 'The image file is removed from the server. This cannot be undone.';
}
