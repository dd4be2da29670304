import { accountOf } from '../../../domain/user.js';
import { usernameKey } from '../../../domain/username.js';
import type { Services } from '../../../services/create-services.js';
import { notAuthorized, notFoundError } from '../errors.js';
import { callerOf, type MethodRequest } from '../types.js';

/** Melon has one library, shown to Subsonic clients as one music folder. */
export const MUSIC_FOLDER = { id: 1, name: 'Music' } as const;

/** A `musicFolderId` other than Melon's one folder is a 70. */
export function checkMusicFolder(request: MethodRequest): void {
  const folder = request.params.string('musicFolderId');
  if (folder !== undefined && folder !== '' && folder !== String(MUSIC_FOLDER.id))
    throw notFoundError(`Music folder '${folder}' not found`);
}

export function systemMethods(services: Services, options: { apiKeys: boolean }) {
  return {
    ping: () => ({}),

    getLicense: () => ({ license: { valid: true } }),

    getOpenSubsonicExtensions: () => ({
      openSubsonicExtensions: [
        { name: 'formPost', versions: [1] },
        ...(options.apiKeys ? [{ name: 'apiKeyAuthentication', versions: [1] }] : []),
        { name: 'topSongsByArtistId', versions: [1] },
        { name: 'songLyrics', versions: [1] },
      ],
    }),

    getMusicFolders: () => ({ musicFolders: { musicFolder: [MUSIC_FOLDER] } }),

    getUser: (request: MethodRequest) => {
      const caller = callerOf(request);
      const username = request.params.required('username');
      const own = caller.username !== null && usernameKey(caller.username) === usernameKey(username);
      if (!own && caller.role !== 'Admin') throw notAuthorized('Only an Admin may read other users');
      const user = services.users
        .list()
        .find((candidate) => usernameKey(candidate.username) === usernameKey(username));
      if (!user) throw notFoundError(`User '${username}' not found`);
      const member = user.role !== 'Pass';
      return {
        user: {
          username: user.username,
          scrobblingEnabled: member,
          adminRole: user.role === 'Admin',
          settingsRole: member,
          downloadRole: true,
          uploadRole: false,
          playlistRole: member,
          coverArtRole: true,
          commentRole: false,
          podcastRole: false,
          streamRole: true,
          jukeboxRole: false,
          shareRole: false,
          videoConversionRole: false,
          folder: [MUSIC_FOLDER.id],
        },
      };
    },

    getScanStatus: () => scanStatus(services),

    startScan: (request: MethodRequest) => {
      accountOf(callerOf(request));
      services.library.startScan();
      return scanStatus(services);
    },
  };
}

function scanStatus(services: Services) {
  const progress = services.library.scanStatus();
  return {
    scanStatus: {
      scanning: progress.running,
      count: progress.running ? progress.filesSeen : services.library.trackRecords().length,
    },
  };
}
