import type { RouteSpec } from './generators.js';

const ranged = {
  userId: 'id:user',
  device: 'device',
  gtDateTime: 'date',
  ltDateTime: 'date',
  page: 'page',
  count: 'count',
} as const;
const recent = { userId: 'id:user', device: 'device', page: 'page', count: 'count' } as const;
const list = { q: 'q', page: 'page', count: 'count' } as const;

/**
 * The parameters of every route in server/http/native/routes.ts, keyed `METHOD path`. The fuzz test fails
 * when the route table has a route that is missing here, so a new endpoint cannot go unfuzzed.
 * Routes that cost a scrypt per valid call (login, user creation, password change) get less weight.
 */
export const ROUTE_SPECS: Record<string, RouteSpec> = {
  'GET /api/health': { params: {} },
  'GET /api/server-info': { params: {} },
  'GET /api/welcome': { params: {} },
  'POST /api/welcome/dismiss': { params: {} },
  'GET /api/server-address': { params: {} },
  'GET /admin': { params: {} },
  'GET /admin/style.css': { params: {} },
  'GET /admin/app.js': { params: {} },

  'GET /auth/login': { params: { username: 'username', password: 'password' }, weight: 0.25 },
  'POST /auth/login': { params: { username: 'username', password: 'password' }, weight: 0.25 },
  'GET /auth/invite': { params: { role: 'role' } },
  'GET /auth/invites': { params: { all: 'bool' } },
  'POST /auth/invites/revoke': { params: { code: 'code' } },
  'GET /auth/code-authenticate': { params: { code: 'code' } },
  'GET /auth/check': { params: {} },

  'POST /api/users/create': {
    params: { username: 'newUsername', password: 'password', role: 'role' },
    weight: 0.4,
  },
  'GET /api/users': { params: {} },
  'POST /api/users/settings': { params: { publicStats: 'bool' } },
  'POST /api/users/change-password': {
    params: { userId: 'id:victim', currentPassword: 'password', newPassword: 'password' },
    weight: 0.3,
  },
  'POST /api/users/stream-token': { params: {} },
  'POST /api/users/delete': { params: { id: 'id:victim' } },
  'POST /api/users/role': { params: { id: 'id:victim', role: 'role' } },
  'POST /api/users/api-keys/create': { params: { name: 'name' } },
  'GET /api/users/api-keys': { params: {} },
  'POST /api/users/api-keys/delete': { params: { id: 'text' } },
  'GET /api/users/forwarding': { params: {} },
  'POST /api/users/forwarding': { params: { url: 'serviceUrl', token: 'text' } },

  'POST /api/stats/log-play': {
    params: { id: 'id:track', device: 'device', dateTime: 'logDate' },
    weight: 2,
  },
  'POST /api/stats/log-skip': {
    params: { id: 'id:track', device: 'device', dateTime: 'logDate' },
    weight: 2,
  },
  'GET /api/stats/listening-time': { params: ranged },
  'GET /api/stats/top-tracks': { params: ranged },
  'GET /api/stats/top-albums': { params: ranged },
  'GET /api/stats/top-artists': { params: ranged },
  'GET /api/stats/top-genres': { params: ranged },
  'GET /api/stats/recent-tracks': { params: recent },
  'GET /api/stats/recent-albums': { params: recent },
  'GET /api/stats/recent-artists': { params: recent },
  'GET /api/stats/activity': { params: { ...ranged, step: 'step' }, weight: 1.5 },
  'GET /api/stats/members': { params: {} },
  'GET /api/stats/devices': { params: { userId: 'id:user' } },
  'GET /api/stats/heatmap': { params: ranged },
  'GET /api/stats/household-facts': { params: { gtDateTime: 'date', ltDateTime: 'date' } },
  'POST /api/stats/import': { params: { source: 'source', userId: 'id:user' }, weight: 0.5 },
  'GET /api/stats/import': { params: {}, weight: 0.5 },
  'GET /api/stats/import/:id': { params: { id: 'text' } },
  'GET /api/stats/unmatched': { params: { userId: 'id:user' }, weight: 0.5 },
  'GET /api/stats/export': { params: { userId: 'id:user', format: 'format' }, weight: 0.5 },
  'GET /api/stats/year-in-review': {
    params: { userId: 'id:user', year: 'year', household: 'bool' },
  },
  'POST /api/stats/rate-track': { params: { id: 'id:track', rating: 'rating' }, weight: 1.5 },
  'POST /api/stats/rate-album': { params: { id: 'id:album', rating: 'rating' }, weight: 1.5 },
  'POST /api/stats/rate-artist': { params: { id: 'id:artist', rating: 'rating' }, weight: 1.5 },

  'POST /api/library/scan': { params: {}, weight: 0.3 },
  'GET /api/library/scan': { params: {} },
  'GET /api/tracks': { params: list },
  'GET /api/tracks/:id': { params: { id: 'id:track' } },
  'GET /api/albums': { params: { ...list, sort: 'text', genre: 'name' } },
  'GET /api/albums/:id': { params: { id: 'id:album' } },
  'GET /api/albums/:id/tracks': { params: { id: 'id:album' } },
  'GET /api/artists': { params: list },
  'GET /api/artists/:id': { params: { id: 'id:artist' } },
  'GET /api/artists/:id/albums': { params: { id: 'id:artist' } },
  'GET /api/artists/:id/top-tracks': { params: { id: 'id:artist', count: 'count' } },
  'GET /api/genres': { params: {} },
  'GET /api/tracks/:id/stream': {
    params: { id: 'id:track', format: 'audioFormat', maxBitRate: 'bitRate', timeOffset: 'timeOffset' },
  },
  'GET /api/tracks/:id/download': { params: { id: 'id:track' } },
  'GET /api/search': { params: { q: 'q', count: 'count' } },
  'GET /api/play-queue': { params: {} },
  'POST /api/play-queue/save': {
    params: { trackIds: 'trackIds', current: 'id:track', positionMs: 'pos', device: 'device' },
    weight: 1.5,
  },
  'GET /api/favourites': { params: {} },
  'POST /api/favourites/star': { params: { kind: 'text', id: 'id:track' }, weight: 1.5 },
  'POST /api/favourites/unstar': { params: { kind: 'text', id: 'id:track' } },
  'GET /api/now-playing': { params: {} },
  'POST /api/now-playing': { params: { id: 'id:track', device: 'device' } },
  'GET /api/playlists': { params: list },
  'GET /api/playlists/:id': { params: { id: 'id:playlist' } },
  'POST /api/playlists/create': {
    params: { name: 'name', description: 'description', trackIds: 'trackIds' },
  },
  'GET /api/collections': { params: list },
  'GET /api/collections/:id': { params: { id: 'id:collection' } },
  'POST /api/collections/create': {
    params: { name: 'name', description: 'description', trackIds: 'trackIds' },
  },
  'GET /api/mixes': { params: { includeHidden: 'bool' } },
  'GET /api/mixes/:id': { params: { id: 'id:mix' } },
  'POST /api/mixes/hide': { params: { id: 'id:mix' } },
  'POST /api/mixes/unhide': { params: { id: 'id:mix' } },

  'POST /api/art/delete/track-art': { params: { id: 'id:track', pos: 'pos' }, weight: 1.5 },
  'POST /api/art/delete/artist-pfp': { params: { id: 'id:artist', pos: 'pos' } },
  'POST /api/art/delete/artist-banner': { params: { id: 'id:artist', pos: 'pos' } },
  'POST /api/art/delete/playlist-art': { params: { id: 'id:playlist' } },
  'POST /api/art/delete/collection-art': { params: { id: 'id:collection' } },
  'POST /api/art/delete/default-art': { params: {} },
  'POST /api/art/upload/artist-pfp': { params: { id: 'id:artist' } },
  'POST /api/art/upload/artist-banner': { params: { id: 'id:artist' } },
  'POST /api/art/upload/playlist-art': { params: { id: 'id:playlist' } },
  'POST /api/art/upload/collection-art': { params: { id: 'id:collection' } },
  'POST /api/art/upload/default-art': { params: {} },
  'GET /api/art/track/:id/:pos': { params: { id: 'id:track', pos: 'pos' } },
  'GET /api/art/artist-pfp/:id/:pos': { params: { id: 'id:artist', pos: 'pos' } },
  'GET /api/art/artist-banner/:id/:pos': { params: { id: 'id:artist', pos: 'pos' } },
  'GET /api/art/playlist/:id': { params: { id: 'id:playlist' } },
  'GET /api/art/collection/:id': { params: { id: 'id:collection' } },
  'GET /api/art/default': { params: {} },
  'GET /api/art/album/:id': { params: { id: 'id:album', size: 'count' } },
  'GET /api/art/artist/:id': { params: { id: 'id:artist', size: 'count' } },

  'GET /api/settings/check-for-updates': { params: {} },
  'POST /api/settings/update-melon': { params: {} },
  'GET /api/settings/update-status': { params: {} },
  'POST /api/settings/update-check': { params: { schedule: 'text' } },

  // The OpenAPI document.
  'GET /api/openapi.json': { params: {} },
};
