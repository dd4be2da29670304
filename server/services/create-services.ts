import { join } from 'node:path';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { scanLibrary } from '../library/scanner.js';
import { audioFilesOnDisk, TrackFiles, type AudioFileIo } from '../library/track-files.js';
import type { Logger } from '../logger.js';
import type { ServiceStores } from '../domain/ports.js';
import { ApiKeyService } from './api-key-service.js';
import { LyricsService } from './lyrics-service.js';
import { AppPasswordSealer } from './app-password-sealer.js';
import { ArtworkService } from './artwork-service.js';
import { AuthService } from './auth-service.js';
import { CollectionService } from './collection-service.js';
import { ExportService } from './history/export-service.js';
import { HistoryService } from './history/history-service.js';
import { ImportService } from './history/import-service.js';
import { YearInReviewService } from './history/year-in-review.js';
import { FavouritesService } from './favourites-service.js';
import { FORWARDING_DEFAULTS, ForwardingService } from './forwarding/forwarding-service.js';
import { outgoingOfEntry, outgoingOfTrack } from './forwarding/outgoing.js';
import { BrowseService } from './playback/browse-service.js';
import { ImageResizer, RESIZED_CACHE_LIMITS } from './image-resizer.js';
import { ImageCache } from './image-cache.js';
import { ListenLog } from './history/listen-log.js';
import { DeviceLimit } from './stats/device-limit.js';
import { InviteService } from './invite-service.js';
import { LibraryService, type LibraryOptions, type Scanner } from './library-service.js';
import { NowPlayingService } from './now-playing.js';
import { indexSource } from './mixes/index-source.js';
import { MixService } from './mixes/mix-service.js';
import { PlayQueueService } from './play-queue-service.js';
import { BookmarkService } from './bookmark-service.js';
import { RadioStationService } from './radio-station-service.js';
import { SearchService } from './playback/search-service.js';
import { StreamService } from './playback/stream-service.js';
import { RatingService } from './rating-service.js';
import type { StatsIndex } from './stats/stats-index.js';
import { StatsService } from './stats/stats-service.js';
import { TokenSigner } from './tokens.js';
import { HeadlessInstaller } from './updates/headless-installer.js';
import { UpdateService, type Installer } from './updates/update-service.js';
import { WelcomeService } from './welcome-service.js';
import { UserService } from './user-service.js';

/** Every service, wired to the store once. Routes get this; services never see Koa. */
export interface Services {
  /** The welcome card of a fresh Melon. */
  welcome: WelcomeService;
  version: string;
  auth: AuthService;
  /** API keys for music apps; `auth` accepts them as bearer values. */
  apiKeys: ApiKeyService;
  invites: InviteService;
  users: UserService;
  library: LibraryService;
  /** Audio of the library's tracks: originals, ranges, transcodes. */
  stream: StreamService;
  search: SearchService;
  lyrics: LyricsService;
  ratings: RatingService;
  collections: CollectionService;
  stats: StatsService;
  artwork: ArtworkService;
  updates: UpdateService;
  nowPlaying: NowPlayingService;
  /** Listening history from outside Melon: scrobbles, imports, exports, the year in review. */
  history: HistoryService;
  imports: ImportService;
  exports: ExportService;
  yearInReview: YearInReviewService;
  favourites: FavouritesService;
  /** Each member's plays sent on to ListenBrainz or a compatible service. */
  forwarding: ForwardingService;
  playQueues: PlayQueueService;
  bookmarks: BookmarkService;
  radioStations: RadioStationService;
  /** Melon's own playlists, made from the household's listening. */
  mixes: MixService;
  browse: BrowseService;
  /** Scaled pictures, shared by the native covers and Subsonic's getCoverArt (one cache). */
  resizer: ImageResizer;
  /** The version and the addresses household devices can use (set once the server listens). */
  serverInfo: () => { version: string; addresses: string[] };
}

export interface ServiceOptions {
  /** Built from the play log as the store opened. */
  statsIndex: StatsIndex;
  /** The desktop app passes its electron-updater installer; headless uses the built-in one. */
  installer?: Installer;
  scanner?: Scanner;
  /** The audio files' picture edits; the files on disk unless given (unit tests give a fake). */
  audioFiles?: AudioFileIo;
  /** Watching the music folders (default on) and its timings. */
  library?: LibraryOptions;
  /** Flushes and closes the store before an installer replaces the app. */
  beforeExit: () => Promise<void>;
  exit?: (code: number) => void;
  serverInfo: () => { version: string; addresses: string[] };
}

export function createServices(
  config: Config,
  store: ServiceStores,
  clock: Clock,
  logger: Logger,
  options: ServiceOptions,
): Services {
  const signer = new TokenSigner(store.jwtSecret, clock);
  const library = new LibraryService(
    store.library,
    store.ratings,
    store.artwork,
    config.libraryDirs,
    options.scanner ?? scanLibrary,
    logger,
    clock,
    options.library,
  );
  const collections = new CollectionService(store.collections, store.artwork, library, clock);
  // The one queue of audio-file edits: the artwork service edits through it, updates wait for it.
  const trackFiles = new TrackFiles(
    options.audioFiles ?? audioFilesOnDisk((track) => library.openTrackFile(track)),
  );
  const artwork = new ArtworkService(
    store.artwork,
    library,
    collections,
    trackFiles,
    new ImageCache(join(config.dataDir, 'cache', 'images')),
  );
  // Plays and "playing now" from every API reach the forwarding here, once durable; imports do not.
  const forwarding = new ForwardingService(
    store.forwarding,
    new AppPasswordSealer(store.forwardingKey),
    clock,
    logger,
    {
      ...FORWARDING_DEFAULTS,
      retryBaseMs: config.forwardRetryMs,
      version: config.version,
      defaultUrl: config.listenBrainzUrl,
    },
  );
  const nowPlaying = new NowPlayingService(clock, (userId, trackId, client) => {
    if (library.hasTrack(trackId))
      forwarding.playingNow(userId, outgoingOfTrack(library, library.track(trackId), client, clock.now()));
  });
  const devices = new DeviceLimit(options.statsIndex);
  const listenLog = new ListenLog(
    store.plays,
    options.statsIndex,
    library,
    () => store.users.list().map((user) => user.id),
    devices,
  );
  const stats = new StatsService(
    store.plays,
    options.statsIndex,
    library,
    store.users,
    clock,
    {
      note: async (entry) => {
        listenLog.note(entry);
        if (entry.type !== 'play') return;
        const track = library.hasTrack(entry.trackId) ? library.track(entry.trackId) : undefined;
        await forwarding.played(entry.userId, [outgoingOfEntry(entry, track)]);
      },
    },
    devices,
  );
  const history = new HistoryService(
    listenLog,
    store.unmatchedListens,
    () => store.library.index(),
    nowPlaying,
    logger,
    forwarding,
  );
  // Plays count for the artists and album their tracks have now: a rescan that splits a credit anew
  // moves them.
  const trackNow = (trackId: string) => {
    const track = store.library.track(trackId);
    if (!track) return undefined;
    const names = track.artistIds.map((id) => store.library.artist(id)?.name ?? '');
    return { ids: track.artistIds, names, albumId: track.albumId };
  };
  const countPlays = () => options.statsIndex.countAsInLibrary(trackNow);
  countPlays();
  library.onScanned(countPlays);
  // Read after listening: in steps, as requests come.
  library.onOpened((turn) => options.statsIndex.countAsInLibraryInSteps(trackNow, turn));
  const search = new SearchService(library);
  // Its indexes are made again in steps after a scan, before the next search needs them.
  library.onScanned(() => void search.warm().catch(() => undefined));
  // So are the album orders players page through (catalog-orders.ts).
  library.onScanned(() => void library.warmOrders().catch(() => undefined));
  // A scan may bring the tracks of listens that matched nothing before.
  library.onScanned(() => {
    history.prepareMatcher();
    history.rematch().catch((error: unknown) => {
      logger.error('matching unmatched listens failed', { error: String(error) });
    });
  });
  const installer =
    options.installer ??
    new HeadlessInstaller({
      downloadDir: join(config.dataDir, 'updates'),
      installCommand: config.installCommand ?? undefined,
      beforeExit: options.beforeExit,
      exit: options.exit,
      logger,
    });
  const apiKeys = new ApiKeyService(store.users, clock, logger, new AppPasswordSealer(store.appPasswordKey));
  const favourites = new FavouritesService(store.favourites, library, clock);
  const playQueues = new PlayQueueService(store.playQueues, library, clock);
  const resizer = new ImageResizer(
    new ImageCache(join(config.dataDir, 'cache', 'resized'), RESIZED_CACHE_LIMITS),
  );
  return {
    version: config.version,
    serverInfo: options.serverInfo,
    auth: new AuthService(store.users, signer, clock, config.tokenTtlSeconds, apiKeys),
    apiKeys,
    welcome: new WelcomeService(store.users, apiKeys, library, store.settings),
    invites: new InviteService(store.users, signer, clock, logger),
    users: new UserService(
      store.users,
      [store.ratings, store.favourites, store.playQueues, store.bookmarks, store.hiddenMixes, forwarding],
      clock,
    ),
    library,
    stream: new StreamService(library, {
      ffmpeg: config.ffmpegPath,
      maxTranscodes: config.maxTranscodes,
      transcodeIdleMs: config.transcodeIdleMs,
      logger,
    }),
    search,
    lyrics: new LyricsService(library, config.libraryDirs),
    ratings: new RatingService(store.ratings, library),
    collections,
    stats,
    artwork,
    nowPlaying,
    history,
    imports: new ImportService(store.importJobs, history, store.users, clock, logger),
    exports: new ExportService({
      readableUser: (caller, userId) => stats.readableUser(caller, userId),
      rows: options.statsIndex,
      track: (id) => (library.hasTrack(id) ? library.track(id) : undefined),
    }),
    yearInReview: new YearInReviewService(
      stats,
      options.statsIndex,
      () => store.users.list(),
      (id) => (library.hasTrack(id) ? library.track(id) : undefined),
      (id) => library.artistName(id),
      clock,
    ),
    favourites,
    forwarding,
    playQueues,
    bookmarks: new BookmarkService(store.bookmarks, library, clock),
    radioStations: new RadioStationService(store.radioStations, clock),
    mixes: new MixService(indexSource(options.statsIndex, library), store.users, store.hiddenMixes, clock),
    browse: new BrowseService(
      library,
      stats,
      favourites,
      playQueues,
      nowPlaying,
      () => new Map(store.users.list().map((user) => [user.id, user.username])),
      artwork,
      resizer,
    ),
    resizer,
    updates: new UpdateService({
      currentVersion: config.version,
      source: {
        releasesUrl: config.releasesUrl,
        repo: config.releasesRepo,
        token: config.githubToken ?? undefined,
        channel: config.updateChannel,
      },
      clock,
      logger,
      installer,
      schedule: config.updateCheck,
      settings: store.settings,
      // Never replace the app while a scan or an artwork edit is writing.
      waitForIdle: async () => {
        await Promise.all([library.waitForIdle(), trackFiles.waitForEdits()]);
      },
    }),
  };
}
