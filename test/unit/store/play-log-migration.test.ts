import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../../server/logger.js';
import { StatsIndex } from '../../../server/services/stats/stats-index.js';
import { openStoreWithIndex } from '../../../server/services/stats/persistence/index-saving.js';
import { PlayLog } from '../../../server/store/play-log.js';
import type { PlayLogEntry } from '../../../server/domain/play.js';
import { encodeV1Line } from '../../../server/store/play-log-codec.js';
import { makeVariedPlays } from '../../factories/plays.js';

/**
 * A play log written by Melon before format 2 (one JSON object per line, the whole snapshot in
 * each) is rewritten in format 2 when it is opened: every readable entry is kept with its id, its
 * snapshot and its flags, and the old file is kept beside it.
 */
function v1Entries(): PlayLogEntry[] {
  // JSON cannot hold a NaN duration, so a version-1 line never held one.
  const plays = makeVariedPlays(300).filter((e) => Number.isFinite(e.durationMs));
  plays.push({
    ...plays[0]!,
    id: 'ünïcödé "quoted" \\ id',
    device: 'Tab\tlet "X"',
    trackName: 'Name with \n newline',
    at: plays[0]!.at + 0.5,
  });
  return plays;
}

async function v1Log(entries: PlayLogEntry[]): Promise<{ dir: string; path: string; text: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'melon-migrate-'));
  const path = join(dir, 'plays.jsonl');
  // A torn last line too: a write cut short by a crash, never acknowledged.
  const text = '{"schemaVersion":1}\n' + entries.map(encodeV1Line).join('') + '{"id":"torn';
  await writeFile(path, text);
  return { dir, path, text };
}

const read = async (path: string) => {
  const entries: PlayLogEntry[] = [];
  const log = await PlayLog.open(path, { logger: createMemoryLogger(), onEntry: (e) => entries.push(e) });
  await log.close();
  return entries;
};

describe('play log migration from format 1', () => {
  it('keeps every entry, id and snapshot, writes format 2 and keeps the old file', async () => {
    const entries = v1Entries();
    const { dir, path, text } = await v1Log(entries);

    expect(await read(path)).toEqual(entries);
    const migrated = await readFile(path, 'utf8');
    expect(migrated.startsWith('{"schemaVersion":2}\n')).toBe(true);
    for (const line of migrated.trimEnd().split('\n'))
      expect(() => JSON.parse(line) as unknown).not.toThrow();
    // One log line per entry, each after the snapshot line it refers to (here most are different).
    expect(migrated.split('\n').filter((l) => l.startsWith('[')).length).toBe(entries.length);
    expect(await readFile(join(dir, 'plays.v1.jsonl'), 'utf8')).toBe(text);
    // Read again as format 2: the same entries.
    expect(await read(path)).toEqual(entries);
  });

  it('answers the statistics as the old log did, with the old ids, and finds retries of old logs', async () => {
    const entries = v1Entries();
    const { dir } = await v1Log(entries);
    const expected = new StatsIndex();
    entries.forEach((e) => expected.add(e));

    const index = new StatsIndex();
    const indexed = await openStoreWithIndex(dir, { logger: createMemoryLogger(), index });
    try {
      expect(index.size).toBe(entries.length);
      for (const userId of ['u0', 'u1', 'u2']) {
        const f = { userId };
        expect(index.recentPlays(f, 0, 1000)).toEqual(expected.recentPlays(f, 0, 1000));
        expect(index.recentPlays(f, 0, 1000).map((e) => e.id)).toEqual(
          entries
            .map((e, i) => ({ e, i }))
            .filter(({ e }) => e.userId === userId && e.type === 'play')
            .sort((a, b) => b.e.at - a.e.at || b.i - a.i)
            .map(({ e }) => e.id),
        );
        expect(index.topTracks(f, 0, 50)).toEqual(expected.topTracks(f, 0, 50));
        expect(index.topGenres(f, 0, 50)).toEqual(expected.topGenres(f, 0, 50));
        expect(index.listeningTime(f)).toEqual(expected.listeningTime(f));
      }
      const explicit = entries.find((e) => e.explicitAt)!;
      expect(index.findRetry(explicit.userId, explicit.trackId, explicit.type, explicit.at)?.id).toBe(
        explicit.id,
      );
    } finally {
      await indexed.close();
    }
  });
});
