import type { Services } from '../../../services/create-services.js';
import type { Lyrics } from '../../../library/lyrics.js';
import type { MethodRequest } from '../types.js';

/**
 * Lyrics from the tracks' own files: embedded tags and a `.lrc` beside the audio. getLyrics (the
 * old API, by artist and title) gives plain text; OpenSubsonic's getLyricsBySongId gives every
 * source, timed where it is.
 */
export function lyricsMethods(services: Services) {
  const { library } = services;
  const artistsOf = (artistIds: readonly string[]) =>
    artistIds.map((id) => library.artistName(id) ?? '').join(', ');

  return {
    getLyrics: async (request: MethodRequest) => {
      const title = request.params.string('title');
      const artist = request.params.string('artist') || undefined;
      if (title === undefined || title === '') return { lyrics: {} };
      const found = await services.lyrics.byName(artist, title);
      if (!found) return { lyrics: {} };
      return {
        lyrics: {
          artist: artistsOf(found.track.artistIds) || undefined,
          title: found.track.name,
          value: found.lyrics.lines.map((line) => line.text).join('\n'),
        },
      };
    },

    getLyricsBySongId: async (request: MethodRequest) => {
      const { track, lyrics } = await services.lyrics.ofTrack(request.params.required('id'));
      const structured = (entry: Lyrics) => ({
        displayArtist: artistsOf(track.artistIds) || undefined,
        displayTitle: track.name,
        lang: entry.lang,
        offset: entry.offsetMs,
        synced: entry.synced,
        line: entry.lines.map((line) => ({ start: line.startMs ?? undefined, value: line.text })),
      });
      return { lyricsList: { structuredLyrics: lyrics.map(structured) } };
    },
  };
}
