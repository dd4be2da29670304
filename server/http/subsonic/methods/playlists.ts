import { MIX_ID_PREFIX } from '../../../domain/ids.js';
import { isoUtc } from '../../../clock.js';
import type { Services } from '../../../services/create-services.js';
import type { Collection } from '../../../contract/collections.js';
import type { Mix } from '../../../contract/mixes.js';
import { SubsonicError, SUBSONIC_CODES } from '../errors.js';
import { callerOf, type MethodRequest } from '../types.js';

const PAGE_ALL = { page: 0, count: 1_000_000 };

/** Mixes are playlists whose id starts with this; only Melon makes and changes them. */
/** The owner Subsonic apps show for a mix. */
const MIX_OWNER = 'Melon';

const isMix = (id: string | undefined) => id !== undefined && id.startsWith(MIX_ID_PREFIX);

function refuseMix(id: string | undefined): void {
  if (isMix(id))
    throw new SubsonicError(SUBSONIC_CODES.notAuthorized, 'Mixes are made by Melon and cannot be changed');
}

export function playlistMethods(services: Services) {
  const { collections, library, users } = services;
  const ownerName = (ownerId: string) => users.list().find((user) => user.id === ownerId)?.username ?? '';

  function playlist(view: Collection, request: MethodRequest) {
    const tracks = view.trackIds.filter((id) => library.hasTrack(id)).map((id) => library.track(id));
    const caller = callerOf(request);
    const created = isoUtc(collections.createdAt('playlist', view.id));
    return {
      id: view.id,
      name: view.name,
      comment: view.description ?? undefined,
      owner: ownerName(view.owner),
      // Melon's playlists are the household's: every signed-in account reads them.
      public: true,
      songCount: tracks.length,
      duration: Math.round(tracks.reduce((total, track) => total + track.durationMs, 0) / 1000),
      created,
      changed: isoUtc(collections.changedAt('playlist', view.id)),
      coverArt: `pl-${view.id}`,
      readonly: caller.role !== 'Admin' && view.owner !== caller.userId,
    };
  }

  /** A mix as a read-only playlist of the caller's; its cover is its first track's. */
  function mixPlaylist(mix: Mix, request: MethodRequest) {
    const tracks = mix.trackIds.filter((id) => library.hasTrack(id)).map((id) => library.track(id));
    const first = tracks[0];
    return {
      playlist: {
        id: mix.id,
        name: mix.name,
        comment: mix.description,
        owner: MIX_OWNER,
        public: false,
        songCount: tracks.length,
        duration: Math.round(tracks.reduce((total, track) => total + track.durationMs, 0) / 1000),
        created: mix.madeAt,
        changed: mix.madeAt,
        coverArt: first ? request.present.song(first)['coverArt'] : undefined,
        readonly: true,
      },
      tracks,
    };
  }

  const withSongs = (view: Collection, request: MethodRequest) => ({
    ...playlist(view, request),
    entry: view.trackIds
      .filter((id) => library.hasTrack(id))
      .map((id) => request.present.song(library.track(id))),
  });

  return {
    getPlaylists: async (request: MethodRequest) => {
      const username = request.params.string('username');
      const caller = callerOf(request);
      if (username !== undefined && username !== caller.username && caller.role !== 'Admin')
        throw new SubsonicError(
          SUBSONIC_CODES.notAuthorized,
          "Only an Admin may list another user's playlists",
        );
      const all = collections.list('playlist', PAGE_ALL).items;
      const shown = username === undefined ? all : all.filter((view) => ownerName(view.owner) === username);
      // The caller's own mixes, after the playlists; not in a list of another user's playlists.
      const mixes =
        username === undefined || username === caller.username ? await services.mixes.list(caller) : [];
      return {
        playlists: {
          playlist: [
            ...shown.map((view) => playlist(view, request)),
            ...mixes.map((mix) => mixPlaylist(mix, request).playlist),
          ],
        },
      };
    },

    getPlaylist: async (request: MethodRequest) => {
      const id = request.params.required('id');
      if (isMix(id)) {
        const { playlist: mix, tracks } = mixPlaylist(
          await services.mixes.get(callerOf(request), id),
          request,
        );
        return { playlist: { ...mix, entry: tracks.map((track) => request.present.song(track)) } };
      }
      return { playlist: withSongs(collections.get('playlist', id), request) };
    },

    /** With `playlistId`, replaces that playlist's songs (and name, when given); else makes one. */
    createPlaylist: async (request: MethodRequest) => {
      const { params } = request;
      const caller = callerOf(request);
      const playlistId = params.string('playlistId');
      refuseMix(playlistId);
      const songIds = params.list('songId');
      for (const id of songIds) library.track(id);
      if (playlistId !== undefined && playlistId !== '') {
        const current = collections.get('playlist', playlistId);
        const view = await collections.update('playlist', caller, playlistId, {
          name: params.string('name') || undefined,
          removePositions: current.trackIds.map((_, position) => position),
          addTrackIds: songIds,
        });
        return { playlist: withSongs(view, request) };
      }
      const view = await collections.create('playlist', caller, {
        name: params.required('name'),
        trackIds: songIds,
      });
      return { playlist: withSongs(view, request) };
    },

    updatePlaylist: async (request: MethodRequest) => {
      const { params } = request;
      refuseMix(params.required('playlistId'));
      for (const id of params.list('songIdToAdd')) library.track(id);
      await collections.update('playlist', callerOf(request), params.required('playlistId'), {
        name: params.string('name') || undefined,
        description: params.string('comment'),
        addTrackIds: params.list('songIdToAdd'),
        removePositions: params.intList('songIndexToRemove', 0, 1_000_000),
      });
      return {};
    },

    deletePlaylist: async (request: MethodRequest) => {
      refuseMix(request.params.required('id'));
      await collections.delete('playlist', callerOf(request), request.params.required('id'));
      return {};
    },

    getPlayQueue: (request: MethodRequest) => {
      const caller = callerOf(request);
      const queue = services.playQueues.get(caller);
      if (!queue) return {};
      return {
        playQueue: {
          current: queue.current ?? undefined,
          position: queue.positionMs,
          username: caller.username,
          changed: isoUtc(queue.changedAt),
          changedBy: queue.changedBy ?? '',
          entry: queue.trackIds.map((id) => request.present.song(library.track(id))),
        },
      };
    },

    savePlayQueue: async (request: MethodRequest) => {
      const { params } = request;
      const current = params.string('current');
      await services.playQueues.save(callerOf(request), {
        trackIds: params.list('id'),
        current: current === undefined || current === '' ? null : current,
        positionMs: params.int('position', 0, 0, Number.MAX_SAFE_INTEGER),
        client: request.client,
      });
      return {};
    },
  };
}
