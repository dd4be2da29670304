import {
  albumSchema,
  artistPageSchema,
  artistSchema,
  scanStatusSchema,
  trackPageSchema,
  trackSchema,
} from '../../../contract/library.js';
import type { LibraryService } from '../../../services/library-service.js';
import { idPath, listQuery } from '../../params.js';
import { callerOf, endpoint } from '../../endpoint.js';

export function libraryHandlers(library: LibraryService) {
  return {
    startScan: endpoint({
      summary: 'Start a library scan (one at a time)',
      status: 202,
      response: scanStatusSchema,
      responseDescription: 'The progress; a scan already running is not started twice',
      handle: () => library.startScan(),
    }),
    scanStatus: endpoint({
      summary: 'The progress of the running or last scan',
      response: scanStatusSchema,
      handle: () => library.scanStatus(),
    }),
    tracks: endpoint({
      summary: 'Tracks by name',
      params: listQuery,
      response: trackPageSchema,
      handle: ({ params, request }) => library.listTracks(callerOf(request), params),
    }),
    artists: endpoint({
      summary: 'Artists by name',
      params: listQuery,
      response: artistPageSchema,
      handle: ({ params, request }) => library.listArtists(callerOf(request), params),
    }),
    track: endpoint({
      summary: 'A track',
      path: idPath,
      response: trackSchema,
      errors: { 404: ['track_not_found'] },
      handle: ({ path, request }) => library.getTrack(callerOf(request), path.id),
    }),
    album: endpoint({
      summary: 'An album',
      path: idPath,
      response: albumSchema,
      errors: { 404: ['album_not_found'] },
      handle: ({ path, request }) => library.getAlbum(callerOf(request), path.id),
    }),
    artist: endpoint({
      summary: 'An artist',
      path: idPath,
      response: artistSchema,
      errors: { 404: ['artist_not_found'] },
      handle: ({ path, request }) => library.getArtist(callerOf(request), path.id),
    }),
  };
}
