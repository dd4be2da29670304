import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../server/clock.js';
import type { LibraryIndex } from '../../server/domain/library.js';
import { TrackFiles } from '../../server/library/track-files.js';
import { createMemoryLogger } from '../../server/logger.js';
import { ArtworkService } from '../../server/services/artwork-service.js';
import { AuthService } from '../../server/services/auth-service.js';
import { CollectionService } from '../../server/services/collection-service.js';
import { FavouritesService } from '../../server/services/favourites-service.js';
import { ImageCache } from '../../server/services/image-cache.js';
import { InviteService } from '../../server/services/invite-service.js';
import { LibraryService, type Scanner } from '../../server/services/library-service.js';
import { indexSource } from '../../server/services/mixes/index-source.js';
import { MixService } from '../../server/services/mixes/mix-service.js';
import { PlayQueueService } from '../../server/services/play-queue-service.js';
import { RatingService } from '../../server/services/rating-service.js';
import { StatsIndex } from '../../server/services/stats/stats-index.js';
import { StatsService } from '../../server/services/stats/stats-service.js';
import { TokenSigner } from '../../server/services/tokens.js';
import { UserService } from '../../server/services/user-service.js';
import { fakeScanner } from '../factories/library.js';
import { FakeArtworkStore } from './artwork-store.js';
import { FakeAudioFiles } from './audio-files.js';
import { FakeCollectionsStore } from './collections-store.js';
import { FakeFavouritesStore } from './favourites-store.js';
import { FakeHiddenMixesStore } from './hidden-mixes-store.js';
import { FakeLibraryStore } from './library-store.js';
import { FakePlayQueuesStore } from './play-queues-store.js';
import { FakePlayStore } from './play-store.js';
import { FakeRatingsStore } from './ratings-store.js';
import { FakeUsersStore } from './users-store.js';

type ServiceClass =
  | typeof ArtworkService
  | typeof AuthService
  | typeof CollectionService
  | typeof FavouritesService
  | typeof InviteService
  | typeof LibraryService
  | typeof MixService
  | typeof PlayQueueService
  | typeof RatingService
  | typeof StatsService
  | typeof UserService;

export interface TestServiceOptions {
  /** What the fake library store holds at start (makeLibrary in test/factories/library.ts); empty by default. */
  library?: LibraryIndex;
  scanner?: Scanner;
  clock?: ManualClock;
  tokenTtlSeconds?: number;
}

/**
 * One service under test (`sut`) over in-memory fakes of every store, in one line:
 *
 *     const { sut, fakes, clock } = newTestService(StatsService, { library });
 *
 * The services are wired to each other as createServices wires them (server/services/create-services.ts), so
 * a rule that crosses services (a deleted user's ratings leave the averages) is tested as it runs.
 * The stats index is the real one, fed by the fake play log; the audio files are fakes of TrackFiles'
 * file operations, holding the pictures the library's tracks list.
 */
export function newTestService<S extends ServiceClass>(Service: S, options: TestServiceOptions = {}) {
  const clock = options.clock ?? new ManualClock();
  const logger = createMemoryLogger();
  const statsIndex = new StatsIndex();
  const initial = options.library ?? { tracks: [], albums: [], artists: [] };
  const fakes = {
    users: new FakeUsersStore(),
    ratings: new FakeRatingsStore(),
    collections: new FakeCollectionsStore(),
    artwork: new FakeArtworkStore(),
    library: new FakeLibraryStore(initial),
    plays: new FakePlayStore((entry) => statsIndex.add(entry)),
    audioFiles: new FakeAudioFiles(),
    favourites: new FakeFavouritesStore(),
    playQueues: new FakePlayQueuesStore(),
    hiddenMixes: new FakeHiddenMixesStore(),
  };
  for (const track of initial.tracks) fakes.audioFiles.add(track);

  const signer = new TokenSigner(randomBytes(32), clock);
  const library = new LibraryService(
    fakes.library,
    fakes.ratings,
    fakes.artwork,
    [],
    options.scanner ?? fakeScanner(initial),
    logger,
    clock,
  );
  const collections = new CollectionService(fakes.collections, fakes.artwork, library, clock);
  const services = {
    auth: new AuthService(fakes.users, signer, clock, options.tokenTtlSeconds ?? 3600),
    invites: new InviteService(fakes.users, signer, clock, logger),
    users: new UserService(
      fakes.users,
      [fakes.ratings, fakes.favourites, fakes.playQueues, fakes.hiddenMixes],
      clock,
    ),
    library,
    ratings: new RatingService(fakes.ratings, library),
    collections,
    stats: new StatsService(fakes.plays, statsIndex, library, fakes.users, clock),
    artwork: new ArtworkService(
      fakes.artwork,
      library,
      collections,
      new TrackFiles(fakes.audioFiles),
      // Only images over 1 MiB are written to the folder; these tests' are smaller.
      new ImageCache(join(tmpdir(), `melon-test-images-${process.pid}`)),
    ),
    favourites: new FavouritesService(fakes.favourites, library, clock),
    playQueues: new PlayQueueService(fakes.playQueues, library, clock),
    mixes: new MixService(indexSource(statsIndex, library), fakes.users, fakes.hiddenMixes, clock),
  };
  const sut = Object.values(services).find((service) => service instanceof Service) as InstanceType<S>;
  return { sut, fakes, clock, logger, signer, statsIndex, services };
}
