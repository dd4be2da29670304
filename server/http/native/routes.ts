import { healthSchema, serverAddressSchema, serverInfoSchema } from '../../contract/server.js';
import { welcomeSchema } from '../../contract/welcome.js';
import type { Services } from '../../services/create-services.js';
import { AdminPage } from '../admin-page.js';
import { apiKeyHandlers } from './handlers/api-keys.js';
import { forwardingHandlers } from './handlers/forwarding.js';
import { artworkHandlers } from './handlers/artwork.js';
import { authHandlers } from './handlers/auth.js';
import { userHandlers } from './handlers/users.js';
import { collectionHandlers } from './handlers/collections.js';
import { libraryHandlers } from './handlers/library.js';
import { playbackHandlers } from './handlers/playback.js';
import { listeningHandlers } from './handlers/listening.js';
import { mixHandlers } from './handlers/mixes.js';
import { updateHandlers } from './handlers/updates.js';
import { ratingHandlers } from './handlers/ratings.js';
import { statsHandlers } from './handlers/stats.js';
import { historyHandlers, IMPORT_UPLOAD_LIMIT_BYTES } from './handlers/history.js';
import { openApiEndpoint } from './openapi.js';
import {
  callerOf,
  endpoint,
  rawEndpoint,
  type Access,
  type DocumentedRoute,
  type Endpoint,
  type RouteGroup,
} from '../endpoint.js';

const PUBLIC: Access = 'public';
const ADMIN: Access = ['Admin'];
const MEMBERS: Access = ['Admin', 'User'];
const READERS: Access = ['Admin', 'User', 'Pass'];
const ADMIN_OR_INVITED: Access = ['Admin', 'Server'];

const get = (
  group: RouteGroup,
  path: string,
  access: Access,
  { handler, doc }: Endpoint,
): DocumentedRoute => ({
  method: 'GET',
  group,
  path,
  access,
  handler,
  doc,
});
const post = (
  group: RouteGroup,
  path: string,
  access: Access,
  { handler, doc }: Endpoint,
  body: DocumentedRoute['body'] = 'form',
): DocumentedRoute => ({
  method: 'POST',
  group,
  path,
  access,
  handler,
  doc,
  body,
});

/** A statistics read (RouteDef.statsRead), open to every reader. */
const statsRead = (path: string, endpoint: Endpoint): DocumentedRoute => ({
  ...get('stats', path, READERS, endpoint),
  statsRead: true,
});

const page = (summary: string, mediaType: string, reply: () => ReturnType<Endpoint['handler']>) =>
  rawEndpoint({ summary, responses: { 200: { description: summary, mediaType } }, handle: reply });

/**
 * Every endpoint, its method and who may call it, in one list. The auth middleware enforces the
 * access column; test/api/route-access.test.ts walks this table. Each endpoint carries the schemas
 * it validates with and answers with; `GET /api/openapi.json` is made from them.
 */
export function routeTable(services: Services): DocumentedRoute[] {
  const auth = authHandlers(services.auth, services.invites);
  const users = userHandlers(services.users, services.stats);
  const apiKeys = apiKeyHandlers(services.apiKeys);
  const forwarding = forwardingHandlers(services.forwarding);
  const stats = statsHandlers(services.stats);
  const history = historyHandlers(services.imports, services.exports, services.yearInReview);
  const ratings = ratingHandlers(services.ratings);
  const library = libraryHandlers(services.library);
  const playback = playbackHandlers(services.stream, services.search);
  const listening = listeningHandlers(services.browse, services.playQueues, services.favourites);
  const playlists = collectionHandlers(services.collections, services.library, 'playlist');
  const collections = collectionHandlers(services.collections, services.library, 'collection');
  const mixes = mixHandlers(services.mixes, services.library);
  const art = artworkHandlers(services.artwork);
  const updates = updateHandlers(services.updates);
  const admin = new AdminPage();
  const routes: DocumentedRoute[] = [
    get(
      'server',
      '/api/health',
      PUBLIC,
      endpoint({
        summary: 'Whether the server is up, and its version',
        response: healthSchema,
        handle: () => ({ status: 'ok' as const, version: services.version }),
      }),
    ),
    get(
      'server',
      '/api/welcome',
      ADMIN,
      endpoint({
        summary: 'The welcome card: what the library holds and the first steps, each ticked once done',
        description:
          'For Admins: members cannot act on it. Steps are read from the server, never from clicks.',
        response: welcomeSchema,
        handle: ({ request }) => services.welcome.show(callerOf(request)),
      }),
    ),
    post(
      'server',
      '/api/welcome/dismiss',
      ADMIN,
      endpoint({
        summary: 'Close the welcome card for the household',
        response: welcomeSchema,
        handle: ({ request }) => services.welcome.dismiss(callerOf(request)),
      }),
    ),
    get(
      'server',
      '/api/server-info',
      ADMIN,
      endpoint({
        summary:
          'The version, the addresses household devices can use, the music folders, and whether it transcodes',
        response: serverInfoSchema,
        handle: async () => ({
          ...services.serverInfo(),
          musicFolders: services.library.musicFolders(),
          transcoding: await services.stream.transcoding(),
        }),
      }),
    ),
    get(
      'server',
      '/api/server-address',
      READERS,
      endpoint({
        summary: 'The address a music app or a phone uses to reach this server (any member may ask)',
        response: serverAddressSchema,
        handle: () => ({ address: services.serverInfo().addresses[0] ?? '' }),
      }),
    ),
    get(
      'server',
      '/api/openapi.json',
      PUBLIC,
      openApiEndpoint(() => routes, services.version),
    ),

    // The settings page; it signs in through the API like any client.
    get(
      'settings page',
      '/admin',
      PUBLIC,
      page('The settings page', 'text/html', () => admin.html()),
    ),
    get(
      'settings page',
      '/admin/style.css',
      PUBLIC,
      page("The settings page's style sheet", 'text/css', () => admin.css()),
    ),
    get(
      'settings page',
      '/admin/app.js',
      PUBLIC,
      page("The settings page's script", 'text/javascript', () => admin.js()),
    ),

    // Authentication (docs/API.md: Authentication)
    get('auth', '/auth/login', PUBLIC, auth.login),
    post('auth', '/auth/login', PUBLIC, auth.login),
    get('auth', '/auth/invite', ADMIN, auth.invite),
    get('auth', '/auth/invites', ADMIN, auth.listInvites),
    post('auth', '/auth/invites/revoke', ADMIN, auth.revokeInvite),
    get('auth', '/auth/code-authenticate', PUBLIC, auth.codeAuthenticate),
    get('auth', '/auth/check', READERS, auth.check),

    // Users (docs/API.md: Users)
    post('users', '/api/users/create', ADMIN_OR_INVITED, users.create),
    get('users', '/api/users', ADMIN, users.list),
    post('users', '/api/users/settings', READERS, users.settings),
    post('users', '/api/users/change-password', READERS, users.changePassword),
    post('users', '/api/users/stream-token', READERS, auth.streamToken),
    post('users', '/api/users/delete', ADMIN, users.delete),
    post('users', '/api/users/role', ADMIN, users.setRole),
    post('users', '/api/users/api-keys/create', READERS, apiKeys.create),
    get('users', '/api/users/api-keys', READERS, apiKeys.list),
    post('users', '/api/users/api-keys/delete', READERS, apiKeys.delete),
    // A Pass account has no plays to forward.
    get('users', '/api/users/forwarding', MEMBERS, forwarding.get),
    post('users', '/api/users/forwarding', MEMBERS, forwarding.set),

    // Statistics (docs/API.md: Statistics, Ratings)
    post('stats', '/api/stats/log-play', MEMBERS, stats.logPlay),
    post('stats', '/api/stats/log-skip', MEMBERS, stats.logSkip),
    statsRead('/api/stats/listening-time', stats.listeningTime),
    statsRead('/api/stats/household-facts', stats.householdFacts),
    statsRead('/api/stats/top-tracks', stats.topTracks),
    statsRead('/api/stats/top-albums', stats.topAlbums),
    statsRead('/api/stats/top-artists', stats.topArtists),
    statsRead('/api/stats/top-genres', stats.topGenres),
    statsRead('/api/stats/recent-tracks', stats.recentTracks),
    statsRead('/api/stats/recent-albums', stats.recentAlbums),
    statsRead('/api/stats/recent-artists', stats.recentArtists),
    statsRead('/api/stats/activity', stats.activity),
    statsRead('/api/stats/members', stats.members),
    statsRead('/api/stats/devices', stats.devices),
    statsRead('/api/stats/heatmap', stats.heatmap),
    // Listening history in and out (docs/API.md: Import and export, Year in review)
    {
      ...post('stats', '/api/stats/import', MEMBERS, history.startImport, 'multipart'),
      uploadLimitBytes: IMPORT_UPLOAD_LIMIT_BYTES,
    },
    get('stats', '/api/stats/import', MEMBERS, history.imports),
    get('stats', '/api/stats/unmatched', MEMBERS, history.missing),
    get('stats', '/api/stats/import/:id', MEMBERS, history.importStatus),
    get('stats', '/api/stats/export', READERS, history.export),
    get('stats', '/api/stats/year-in-review', READERS, history.yearInReview),
    post('ratings', '/api/stats/rate-track', MEMBERS, ratings.rateTrack),
    post('ratings', '/api/stats/rate-album', MEMBERS, ratings.rateAlbum),
    post('ratings', '/api/stats/rate-artist', MEMBERS, ratings.rateArtist),

    // Library (docs/API.md: Library)
    post('library', '/api/library/scan', ADMIN, library.startScan),
    get('library', '/api/library/scan', ADMIN, library.scanStatus),
    get('library', '/api/tracks', READERS, library.tracks),
    get('library', '/api/tracks/:id', READERS, library.track),
    get('library', '/api/albums', READERS, listening.albums),
    get('library', '/api/albums/:id', READERS, library.album),
    get('library', '/api/albums/:id/tracks', READERS, listening.albumTracks),
    get('library', '/api/artists', READERS, library.artists),
    get('library', '/api/artists/:id', READERS, library.artist),
    get('library', '/api/artists/:id/albums', READERS, listening.artistAlbums),
    get('library', '/api/artists/:id/top-tracks', READERS, listening.artistTopTracks),
    get('library', '/api/genres', READERS, listening.genres),

    // Streaming and search (docs/API.md: Streaming, Search); a GET route also answers HEAD.
    { ...get('playback', '/api/tracks/:id/stream', READERS, playback.stream), queryToken: true },
    get('playback', '/api/tracks/:id/download', READERS, playback.download),
    get('playback', '/api/search', READERS, playback.search),
    get('playback', '/api/play-queue', READERS, listening.playQueue),
    post('playback', '/api/play-queue/save', MEMBERS, listening.savePlayQueue),
    get('playback', '/api/favourites', READERS, listening.favourites),
    post('playback', '/api/favourites/star', MEMBERS, listening.star),
    post('playback', '/api/favourites/unstar', MEMBERS, listening.unstar),
    get('playback', '/api/now-playing', READERS, listening.nowPlaying),
    post('playback', '/api/now-playing', MEMBERS, listening.announce),
    get('playlists', '/api/playlists', READERS, playlists.list),
    get('playlists', '/api/playlists/:id', READERS, playlists.get),
    get('playlists', '/api/playlists/:id/tracks', READERS, playlists.tracks),
    post('playlists', '/api/playlists/create', MEMBERS, playlists.create),
    get('playlists', '/api/collections', READERS, collections.list),
    get('playlists', '/api/collections/:id', READERS, collections.get),
    get('playlists', '/api/collections/:id/tracks', READERS, collections.tracks),
    post('playlists', '/api/collections/create', MEMBERS, collections.create),
    get('playlists', '/api/mixes', READERS, mixes.list),
    get('playlists', '/api/mixes/:id', READERS, mixes.get),
    get('playlists', '/api/mixes/:id/tracks', READERS, mixes.tracks),
    post('playlists', '/api/mixes/hide', READERS, mixes.hide),
    post('playlists', '/api/mixes/unhide', READERS, mixes.unhide),

    // Artwork (docs/API.md: Artwork)
    post('artwork', '/api/art/delete/track-art', ADMIN, art.deleteTrackArt),
    post('artwork', '/api/art/delete/artist-pfp', ADMIN, art.deleteArtistPfp),
    post('artwork', '/api/art/delete/artist-banner', ADMIN, art.deleteArtistBanner),
    post('artwork', '/api/art/delete/playlist-art', ADMIN, art.deletePlaylistArt),
    post('artwork', '/api/art/delete/collection-art', ADMIN, art.deleteCollectionArt),
    post('artwork', '/api/art/delete/default-art', ADMIN, art.deleteDefaultArt),
    post('artwork', '/api/art/upload/artist-pfp', ADMIN, art.uploadArtistPfp, 'multipart'),
    post('artwork', '/api/art/upload/artist-banner', ADMIN, art.uploadArtistBanner, 'multipart'),
    post('artwork', '/api/art/upload/playlist-art', ADMIN, art.uploadPlaylistArt, 'multipart'),
    post('artwork', '/api/art/upload/collection-art', ADMIN, art.uploadCollectionArt, 'multipart'),
    post('artwork', '/api/art/upload/default-art', ADMIN, art.uploadDefaultArt, 'multipart'),
    get('artwork', '/api/art/track/:id/:pos', READERS, art.trackImage),
    get('artwork', '/api/art/artist-pfp/:id/:pos', READERS, art.artistPfp),
    get('artwork', '/api/art/artist-banner/:id/:pos', READERS, art.artistBanner),
    get('artwork', '/api/art/playlist/:id', READERS, art.playlistImage),
    get('artwork', '/api/art/collection/:id', READERS, art.collectionImage),
    get('artwork', '/api/art/default', READERS, art.defaultImage),
    get('artwork', '/api/art/album/:id', READERS, listening.albumCover),
    get('artwork', '/api/art/artist/:id', READERS, listening.artistCover),

    // Updates (docs/API.md: Updates)
    get('updates', '/api/settings/check-for-updates', MEMBERS, updates.checkForUpdates),
    post('updates', '/api/settings/update-melon', ADMIN, updates.updateMelon),
    get('updates', '/api/settings/update-status', ADMIN, updates.updateStatus),
    post('updates', '/api/settings/update-check', ADMIN, updates.setSchedule),
  ];
  return routes;
}
