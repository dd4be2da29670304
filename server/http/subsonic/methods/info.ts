import type { Principal } from '../../../domain/user.js';
import type { Services } from '../../../services/create-services.js';
import { notFoundError } from '../errors.js';
import { TextElement, type Payload } from '../render.js';
import { callerOf, type MethodRequest } from '../types.js';
import { householdTrackPlays } from './household.js';

const ALL = 1_000_000;
/** The sizes of ArtistInfo's and AlbumInfo's small, medium and large image URLs. */
const IMAGE_SIZES = { smallImageUrl: 150, mediumImageUrl: 300, largeImageUrl: 600 } as const;
/** The sign-in parameters an image URL carries, so the app can load it as it loads cover art. */
const AUTH_PARAMS = ['u', 'p', 't', 's', 'apiKey', 'v', 'c'] as const;

/**
 * Artist and album information, and similar songs, from what Melon has: stored pictures (as
 * getCoverArt URLs) and the household's own listening. Melon asks no outside service, so there is
 * no biography, notes or last.fm link.
 */
export function infoMethods(services: Services) {
  const { library } = services;

  const artistInfo = async (request: MethodRequest, id3: boolean) => {
    const caller = callerOf(request);
    const artist = library.artist(request.params.required('id'));
    const count = request.params.int('count', 20, 0, 500);
    const similar = (await similarArtists(services, caller, artist.id))
      .slice(0, count)
      .map((id) => library.artist(id));
    return {
      ...imageUrls(request, `ar-${artist.id}`),
      similarArtist: similar.map((other) =>
        id3 ? request.present.artist(other) : request.present.indexArtist(other),
      ),
    };
  };

  const albumInfo = (request: MethodRequest) => {
    const id = request.params.required('id');
    const album = library.hasTrack(id) ? library.track(id).albumId : id;
    if (album === null) throw notFoundError(`Album of '${id}' not found`);
    const record = library.album(album);
    return { albumInfo: imageUrls(request, `al-${record.id}`) };
  };

  const similarSongs = async (request: MethodRequest, id3: boolean) => {
    const caller = callerOf(request);
    const id = request.params.required('id');
    const count = request.params.int('count', 50, 0, 500);
    let seedArtists: string[];
    let exclude: string | null = null;
    if (library.hasTrack(id)) {
      seedArtists = library.track(id).artistIds;
      exclude = id;
    } else if (!id3 && library.has('album', id)) seedArtists = library.album(id).artistIds;
    else seedArtists = [library.artist(id).id];
    const artists = new Set(seedArtists);
    for (const seed of seedArtists)
      for (const other of await similarArtists(services, caller, seed)) artists.add(other);
    const playsOf = householdTrackPlays(services, caller);
    // The tracks of those artists (each once), not a filter of the whole library.
    const candidates = new Set([...artists].flatMap((artist) => library.artistTracks(artist)));
    const song = [...candidates]
      .filter((track) => track.id !== exclude)
      .map((track) => ({ track, plays: playsOf(track.id) }))
      .sort(
        (a, b) =>
          b.plays - a.plays || a.track.name.localeCompare(b.track.name) || (a.track.id < b.track.id ? -1 : 1),
      )
      .slice(0, count)
      .map(({ track }) => request.present.song(track));
    return id3 ? { similarSongs2: { song } } : { similarSongs: { song } };
  };

  return {
    getArtistInfo: async (request: MethodRequest) => ({ artistInfo: await artistInfo(request, false) }),
    getArtistInfo2: async (request: MethodRequest) => ({ artistInfo2: await artistInfo(request, true) }),
    getAlbumInfo: albumInfo,
    getAlbumInfo2: albumInfo,
    getSimilarSongs: (request: MethodRequest) => similarSongs(request, false),
    getSimilarSongs2: (request: MethodRequest) => similarSongs(request, true),
  };
}

/** getCoverArt URLs of a picture in three sizes, signed as the request was. */
function imageUrls(request: MethodRequest, coverArt: string): Payload {
  const auth = new URLSearchParams();
  for (const name of AUTH_PARAMS) {
    const value = request.params.string(name);
    if (value !== undefined && value !== '') auth.set(name, value);
  }
  const urls: Payload = {};
  for (const [field, size] of Object.entries(IMAGE_SIZES)) {
    const query = new URLSearchParams({ id: coverArt, size: String(size) });
    urls[field] = new TextElement(
      `${request.origin}/rest/getCoverArt.view?${query.toString()}&${auth.toString()}`,
    );
  }
  return urls;
}

/**
 * Artists the household plays alongside this one: each listener whose statistics the caller may
 * read adds every other artist's plays, weighted by the share of their listening that went to this
 * artist. So "people who play A a lot also play B" ranks B high; ties by name.
 */
export async function similarArtists(
  services: Services,
  caller: Principal,
  artistId: string,
): Promise<string[]> {
  const scores = new Map<string, number>();
  for (const user of services.users.list()) {
    if (!services.stats.mayRead(caller, user.id)) continue;
    const top = await services.stats.ranked(caller, 'artists', { userId: user.id, page: 0, count: ALL });
    const total = top.reduce((sum, item) => sum + item.plays, 0);
    const own = top.find((item) => item.id === artistId)?.plays ?? 0;
    if (own === 0 || total === 0) continue;
    const weight = own / total;
    for (const item of top)
      if (item.id !== artistId && item.plays > 0)
        scores.set(item.id, (scores.get(item.id) ?? 0) + weight * item.plays);
  }
  const { library } = services;
  return [...scores.entries()]
    .filter(([id]) => library.artistName(id) !== null && library.has('artist', id))
    .sort(
      ([a, x], [b, y]) =>
        y - x || (library.artistName(a) ?? '').localeCompare(library.artistName(b) ?? '') || (a < b ? -1 : 1),
    )
    .map(([id]) => id);
}
