/**
 * Pieces the Listen pages share: cover pictures, album cards, track lists and the row of play
 * buttons (Play, Shuffle, Play next, Add to queue).
 */
import type { Album, Track } from '../../server/contract/library.js';
import type { ViewContext } from '../context.js';
import { h, srOnly, type Child } from '../dom.js';
import { icon } from '../player/icons.js';
import { clock } from '../player/player-bar.js';
import type { Player } from '../player/player.js';
import { hrefOf } from '../route.js';
import { apiImage, type ObjectUrls } from '../ui/pictures.js';

export const GRID_COVER_PX = 300;

export function coverImage(
  ctx: ViewContext,
  urls: ObjectUrls,
  kind: 'album' | 'artist',
  id: string,
  className = 'cover',
): HTMLImageElement {
  // The name beside it says what it is: the picture is decoration for a screen reader.
  return apiImage(
    ctx.api,
    urls,
    `/api/art/${kind}/${encodeURIComponent(id)}?size=${GRID_COVER_PX}`,
    '',
    className,
  );
}

export const artistNames = (artists: readonly { name: string }[]) => artists.map((a) => a.name).join(', ');

export function artistLinks(artists: readonly { id: string; name: string }[]): Child[] {
  return artists.flatMap((artist, i) => [
    i > 0 ? ', ' : null,
    h('a', { text: artist.name, attrs: { href: hrefOf('listen', { artist: artist.id }) } }),
  ]);
}

/** An album in a grid: its cover and name open it; the round button plays it at once. */
export function albumCard(
  ctx: ViewContext,
  urls: ObjectUrls,
  album: Album,
  play: (album: Album) => Promise<void>,
): HTMLElement {
  return h(
    'li',
    { class: 'album-card', testid: 'album-card' },
    h(
      'a',
      { class: 'album-open', attrs: { href: hrefOf('listen', { album: album.id }) } },
      coverImage(ctx, urls, 'album', album.id),
      h('span', { class: 'album-name', text: album.name }),
    ),
    h('span', {
      class: 'album-artist muted',
      text: [artistNames(album.artists), album.year].filter(Boolean).join(' · '),
    }),
    h(
      'button',
      {
        class: 'card-play',
        testid: 'album-card-play',
        attrs: { type: 'button', 'aria-label': `Play ${album.name}`, title: `Play ${album.name}` },
        on: { click: () => void play(album) },
      },
      icon('play'),
    ),
  );
}

/** Play, Shuffle, Play next and Add to queue for a list of tracks fetched when a button is used. */
export function playButtons(
  player: Player | null,
  name: string,
  tracks: () => Promise<readonly Track[]>,
  onError: (error: unknown) => void,
  says: (text: string) => void,
): HTMLElement {
  const run = (action: (list: readonly Track[]) => void, done?: string) => async () => {
    try {
      const list = await tracks();
      action(list);
      if (done) says(done);
    } catch (error) {
      onError(error);
    }
  };
  const button = (
    text: string,
    label: string,
    testid: string,
    action: () => Promise<void>,
    primary = false,
  ) =>
    h('button', {
      class: primary ? 'button primary' : 'button',
      testid,
      text,
      attrs: { type: 'button', 'aria-label': label, disabled: player === null },
      on: { click: () => void action() },
    });
  return h(
    'div',
    { class: 'play-buttons' },
    button(
      'Play',
      `Play ${name}`,
      'play-all',
      run((list) => player?.play(list)),
      true,
    ),
    button(
      'Shuffle',
      `Shuffle ${name}`,
      'shuffle-all',
      run((list) => player?.play(list, 0, true)),
    ),
    button(
      'Play next',
      `Play next: ${name}`,
      'play-next',
      run((list) => player?.playNext(list), `${name} plays next.`),
    ),
    button(
      'Add to queue',
      `Add to queue: ${name}`,
      'add-to-queue',
      run((list) => player?.add(list), `${name} is in the queue.`),
    ),
  );
}

/** A numbered list of tracks with durations; a track's name plays the list from it. */
export function trackList(
  player: Player | null,
  tracks: readonly Track[],
  options: { showAlbum?: boolean; testid?: string } = {},
): HTMLElement {
  return h(
    'ol',
    { class: 'track-list', testid: options.testid ?? 'track-list' },
    ...tracks.map((track, i) =>
      h(
        'li',
        { class: 'track-row', testid: 'track-row' },
        h('span', {
          class: 'track-number muted',
          text: String(track.trackNumber ?? i + 1),
          attrs: { 'aria-hidden': 'true' },
        }),
        h(
          'button',
          {
            class: 'track-play',
            testid: 'track-play',
            attrs: { type: 'button', disabled: player === null },
            on: { click: () => player?.play(tracks, i) },
          },
          srOnly('Play '),
          h('span', { class: 'track-name', text: track.name }),
          h('span', {
            class: 'track-meta muted',
            text: [artistNames(track.artists), options.showAlbum ? track.album?.name : null]
              .filter(Boolean)
              .join(' · '),
          }),
        ),
        h('span', { class: 'track-duration muted', text: clock(track.durationMs) }),
        h(
          'span',
          { class: 'track-actions' },
          h('button', {
            class: 'button small',
            text: 'Next',
            attrs: { type: 'button', 'aria-label': `Play ${track.name} next`, disabled: player === null },
            on: { click: () => player?.playNext([track]) },
          }),
          h('button', {
            class: 'button small',
            text: 'Add',
            attrs: {
              type: 'button',
              'aria-label': `Add ${track.name} to the queue`,
              disabled: player === null,
            },
            on: { click: () => player?.add([track]) },
          }),
        ),
      ),
    ),
  );
}

/** `5 tracks · 23 min`. */
export function trackSummary(tracks: readonly Track[]): string {
  const ms = tracks.reduce((sum, track) => sum + track.durationMs, 0);
  const minutes = Math.round(ms / 60_000);
  const words = `${tracks.length} ${tracks.length === 1 ? 'track' : 'tracks'}`;
  return minutes > 0 ? `${words} · ${minutes} min` : `${words} · ${clock(ms)}`;
}
