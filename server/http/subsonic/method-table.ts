import type { Clock } from '../../clock.js';
import type { ImageResizer } from '../../services/image-resizer.js';
import type { Services } from '../../services/create-services.js';
import { absentMethods } from './methods/absent.js';
import { annotationMethods } from './methods/annotation.js';
import { bookmarkMethods } from './methods/bookmarks.js';
import { browsingMethods } from './methods/browsing.js';
import { infoMethods } from './methods/info.js';
import { listMethods } from './methods/lists.js';
import { lyricsMethods } from './methods/lyrics.js';
import { mediaMethods } from './methods/media.js';
import { playlistMethods } from './methods/playlists.js';
import { radioMethods } from './methods/radio.js';
import { searchMethods } from './methods/search.js';
import { systemMethods } from './methods/system.js';
import type { MethodAccess, MethodHandler, SubsonicMethod } from './types.js';

/** Who may call: the same roles as the native API (docs/API.md, Roles). A Server token never gets here. */
const PUBLIC: MethodAccess = 'public';
const ADMIN: MethodAccess = ['Admin'];
/** Listeners who may change things: scrobble, rate, star, playlists, play queue. */
const MEMBERS: MethodAccess = ['Admin', 'User'];
/** Everyone with an account: a Pass reads and streams. */
const READERS: MethodAccess = ['Admin', 'User', 'Pass'];

export interface SubsonicOptions {
  clock: Clock;
  resizer: ImageResizer;
  /** Whether API keys can be checked (the apiKeyAuthentication extension is listed only then). */
  apiKeys: boolean;
  /**
   * Settles once the server has started (its plays loaded): the answers Subsonic keeps between
   * requests are made then, in steps, rather than at a player's first request. None: at that request.
   */
  started?: Promise<unknown>;
}

/**
 * Every Subsonic method Melon answers, who may call it and what runs, in one list
 * (docs/API.md, Subsonic). Each is reachable as `/rest/{name}` and `/rest/{name}.view`, by GET or
 * by a form POST. test/subsonic/access.test.ts walks this table.
 */
export function subsonicMethods(services: Services, options: SubsonicOptions): SubsonicMethod[] {
  const system = systemMethods(services, { apiKeys: options.apiKeys });
  const browse = browsingMethods(services, options.started);
  const lists = listMethods(services, options.clock);
  const search = searchMethods(services);
  const annotate = annotationMethods(services);
  const playlists = playlistMethods(services);
  const media = mediaMethods(services, options.resizer);
  const info = infoMethods(services);
  const lyrics = lyricsMethods(services);
  const bookmarks = bookmarkMethods(services);
  const radio = radioMethods(services);
  const absent = absentMethods();
  const m = (name: string, access: MethodAccess, handler: MethodHandler): SubsonicMethod => ({
    name,
    access,
    handler,
    writes: false,
  });
  /** A method that changes state. */
  const w = (name: string, access: MethodAccess, handler: MethodHandler): SubsonicMethod => ({
    ...m(name, access, handler),
    writes: true,
  });
  return [
    // System
    m('ping', READERS, system.ping),
    m('getLicense', READERS, system.getLicense),
    m('getOpenSubsonicExtensions', PUBLIC, system.getOpenSubsonicExtensions),
    m('getMusicFolders', READERS, system.getMusicFolders),
    m('getUser', READERS, system.getUser),
    m('getScanStatus', ADMIN, system.getScanStatus),
    w('startScan', ADMIN, system.startScan),

    // Browsing
    m('getIndexes', READERS, browse.getIndexes),
    m('getMusicDirectory', READERS, browse.getMusicDirectory),
    m('getArtists', READERS, browse.getArtists),
    m('getArtist', READERS, browse.getArtist),
    m('getAlbum', READERS, browse.getAlbum),
    m('getSong', READERS, browse.getSong),
    m('getGenres', READERS, browse.getGenres),
    m('getTopSongs', READERS, browse.getTopSongs),
    m('getArtistInfo', READERS, info.getArtistInfo),
    m('getArtistInfo2', READERS, info.getArtistInfo2),
    m('getAlbumInfo', READERS, info.getAlbumInfo),
    m('getAlbumInfo2', READERS, info.getAlbumInfo2),
    m('getSimilarSongs', READERS, info.getSimilarSongs),
    m('getSimilarSongs2', READERS, info.getSimilarSongs2),
    m('getLyrics', READERS, lyrics.getLyrics),
    m('getLyricsBySongId', READERS, lyrics.getLyricsBySongId),

    // Lists
    m('getAlbumList', READERS, lists.getAlbumList),
    m('getAlbumList2', READERS, lists.getAlbumList2),
    m('getRandomSongs', READERS, lists.getRandomSongs),
    m('getSongsByGenre', READERS, lists.getSongsByGenre),
    m('getNowPlaying', READERS, lists.getNowPlaying),
    m('getStarred', READERS, lists.getStarred),
    m('getStarred2', READERS, lists.getStarred2),

    // Searching
    m('search2', READERS, search.search2),
    m('search3', READERS, search.search3),

    // Media
    m('stream', READERS, media.stream),
    m('download', READERS, media.download),
    m('getCoverArt', READERS, media.getCoverArt),

    // Annotation
    w('scrobble', MEMBERS, annotate.scrobble),
    w('setRating', MEMBERS, annotate.setRating),
    w('star', MEMBERS, annotate.star),
    w('unstar', MEMBERS, annotate.unstar),

    // Playlists
    m('getPlaylists', READERS, playlists.getPlaylists),
    m('getPlaylist', READERS, playlists.getPlaylist),
    w('createPlaylist', MEMBERS, playlists.createPlaylist),
    w('updatePlaylist', MEMBERS, playlists.updatePlaylist),
    w('deletePlaylist', MEMBERS, playlists.deletePlaylist),

    // Play queue
    m('getPlayQueue', READERS, playlists.getPlayQueue),
    w('savePlayQueue', MEMBERS, playlists.savePlayQueue),

    // Bookmarks
    m('getBookmarks', READERS, bookmarks.getBookmarks),
    w('createBookmark', MEMBERS, bookmarks.createBookmark),
    w('deleteBookmark', MEMBERS, bookmarks.deleteBookmark),

    // Internet radio
    m('getInternetRadioStations', READERS, radio.getInternetRadioStations),
    w('createInternetRadioStation', ADMIN, radio.createInternetRadioStation),
    w('updateInternetRadioStation', ADMIN, radio.updateInternetRadioStation),
    w('deleteInternetRadioStation', ADMIN, radio.deleteInternetRadioStation),

    // What Melon does not have: empty lists, and 50 for changes
    m('getPodcasts', READERS, absent.getPodcasts),
    m('getNewestPodcasts', READERS, absent.getNewestPodcasts),
    w('refreshPodcasts', READERS, absent.refreshPodcasts),
    w('createPodcastChannel', READERS, absent.createPodcastChannel),
    w('deletePodcastChannel', READERS, absent.deletePodcastChannel),
    w('deletePodcastEpisode', READERS, absent.deletePodcastEpisode),
    w('downloadPodcastEpisode', READERS, absent.downloadPodcastEpisode),
    m('getShares', READERS, absent.getShares),
    w('createShare', READERS, absent.createShare),
    w('updateShare', READERS, absent.updateShare),
    w('deleteShare', READERS, absent.deleteShare),
    w('jukeboxControl', READERS, absent.jukeboxControl),
  ];
}
