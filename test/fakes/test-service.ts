import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../server/clock.js';
import { loadConfig } from '../../server/config.js';
import type { LibraryIndex } from '../../server/domain/library.js';
import type { ServiceStores } from '../../server/domain/ports.js';
import { createMemoryLogger } from '../../server/logger.js';
import { createServices, type Services } from '../../server/services/create-services.js';
import type { Scanner } from '../../server/services/library-service.js';
import { StatsIndex } from '../../server/services/stats/stats-index.js';
import { TokenSigner } from '../../server/services/tokens.js';
import { fakeScanner } from '../factories/library.js';
import { FakeArtworkStore } from './artwork-store.js';
import { FakeAudioFiles } from './audio-files.js';
import { FakeBookmarksStore } from './bookmarks-store.js';
import { FakeCollectionsStore } from './collections-store.js';
import { FakeFavouritesStore } from './favourites-store.js';
import { FakeHiddenMixesStore } from './hidden-mixes-store.js';
import { FakeForwardingStore } from './forwarding-store.js';
import { FakeImportJobs } from './import-jobs.js';
import { FakeLibraryStore } from './library-store.js';
import { FakePlayQueuesStore } from './play-queues-store.js';
import { FakePlayStore } from './play-store.js';
import { FakeRadioStationsStore } from './radio-stations-store.js';
import { FakeRatingsStore } from './ratings-store.js';
import { FakeUnmatchedListens } from './unmatched-listens.js';
import { FakeUsersStore } from './users-store.js';
import { FakeSettingsStore } from './settings-store.js';

/** A class of one of the services createServices builds. */
type ServiceClass = abstract new (...args: never[]) => Services[keyof Services];

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
 * The services are built by createServices itself (server/services/create-services.ts), over the
 * fakes instead of the data folder, so a rule that crosses services (a deleted user's ratings leave
 * the averages) is tested as it runs. The stats index is the real one, fed by the fake play log; the
 * audio files are fakes of TrackFiles' file operations, holding the pictures the library's tracks
 * list. No music folder is watched and no update is fetched.
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
    unmatchedListens: new FakeUnmatchedListens(),
    importJobs: new FakeImportJobs(),
    audioFiles: new FakeAudioFiles(),
    favourites: new FakeFavouritesStore(),
    playQueues: new FakePlayQueuesStore(),
    bookmarks: new FakeBookmarksStore(),
    radioStations: new FakeRadioStationsStore(),
    hiddenMixes: new FakeHiddenMixesStore(),
    settings: new FakeSettingsStore(),
    forwarding: new FakeForwardingStore(),
  };
  for (const track of initial.tracks) fakes.audioFiles.add(track);
  const stores: ServiceStores = {
    ...fakes,
    jwtSecret: randomBytes(32),
    appPasswordKey: randomBytes(32),
    forwardingKey: randomBytes(32),
  };

  const config = loadConfig(
    {},
    {
      // Only images over 1 MiB, and resized covers, are written to the folder; these tests' are small.
      dataDir: join(tmpdir(), `melon-test-services-${process.pid}`),
      libraryDirs: [],
      releasesUrl: 'http://127.0.0.1:9',
      updateCheck: 'off',
      tokenTtlSeconds: options.tokenTtlSeconds ?? 3600,
    },
  );
  const services = createServices(config, stores, clock, logger, {
    statsIndex,
    scanner: options.scanner ?? fakeScanner(initial),
    audioFiles: fakes.audioFiles,
    library: { watch: false },
    beforeExit: () => Promise.resolve(),
    exit: () => undefined,
    serverInfo: () => ({ version: config.version, addresses: [] }),
  });
  // Signs as the services' own signer does: the same secret and clock.
  const signer = new TokenSigner(stores.jwtSecret, clock);
  const sut = Object.values(services).find((service) => service instanceof Service) as InstanceType<S>;
  return { sut, fakes, clock, logger, signer, statsIndex, services };
}
