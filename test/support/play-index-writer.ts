/**
 * A process that writes plays and saves the play index incrementally, then keeps writing without
 * saving and waits to be killed (test/crash/play-index-kill9.test.ts).
 *
 *   tsx test/support/play-index-writer.ts DATA_DIR SAVES PER_SAVE UNSAVED
 *
 * Prints `ready` once the unsaved plays are durable.
 */
import { createMemoryLogger } from '../../server/logger.js';
import { StatsIndex } from '../../server/services/stats/stats-index.js';
import { openStoreWithIndex } from '../../server/services/stats/persistence/index-saving.js';
import { makeVariedPlays } from '../factories/plays.js';

const [dataDir, SAVES, PER_SAVE, UNSAVED] = [process.argv[2]!, ...process.argv.slice(3, 6).map(Number)] as [
  string,
  number,
  number,
  number,
];
const { store, saveIndex } = await openStoreWithIndex(dataDir, {
  logger: createMemoryLogger(),
  index: new StatsIndex(),
});
const plays = makeVariedPlays(SAVES * PER_SAVE + UNSAVED);
let next = 0;
for (let save = 0; save < SAVES; save += 1) {
  for (let i = 0; i < PER_SAVE; i += 1) await store.plays.append(plays[next++]!);
  await saveIndex();
}
await Promise.all(plays.slice(next).map((play) => store.plays.append(play)));
process.stdout.write('ready\n');
setInterval(() => undefined, 60_000);
