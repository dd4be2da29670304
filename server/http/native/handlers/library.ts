import {
  albumSchema,
  artistPageSchema,
  artistSchema,
  scanStatusSchema,
  trackPageSchema,
  trackSchema,
} from '../../../contract/library.js';
import type { LibraryService } from '../../../services/library-service.js';
import { listQuery } from '../../params.js';
import { byIdEndpoint, callerOf, endpoint } from '../../endpoint.js';

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
    track: byIdEndpoint({
      summary: 'A track',
      response: trackSchema,
      notFound: 'track_not_found',
      handle: (caller, id) => library.getTrack(caller, id),
    }),
    album: byIdEndpoint({
      summary: 'An album',
      response: albumSchema,
      notFound: 'album_not_found',
      handle: (caller, id) => library.getAlbum(caller, id),
    }),
    artist: byIdEndpoint({
      summary: 'An artist',
      response: artistSchema,
      notFound: 'artist_not_found',
      handle: (caller, id) => library.getArtist(caller, id),
    }),
  };
}
