/**
 * Where a large library's memory goes, in one process: `npx tsx --expose-gc
 * scripts/bench-library-memory.ts [--tracks N] [--one-line] [--snapshot]`. Writes a library.json
 * of N tracks shaped as `npm run bench -- --tracks N` makes them (ten tracks an album, 25 an artist,
 * a guest on one track in ten, genres, years; a front cover per track as scanned files have; with
 * `--one-line` on one line, as an older Melon wrote it), then opens it through the store and builds
 * the catalog, its orders and the search indexes as the server does (and the track matcher a scrobbler's first listen
 * makes), and reports the memory in use (heap and typed arrays) after each step. `--snapshot`
 * writes a heap snapshot at the end and prints the largest constructors by their own size.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import type { LibraryIndex } from '../server/domain/library.js';
import { catalogueOf } from './bench-catalogue.js';
import { TrackMatcher } from '../server/services/history/track-matcher.js';
import { LibraryCatalog } from '../server/services/library-catalog.js';
import { NameIndex } from '../server/services/playback/search-index.js';
import { writeLibraryFile } from '../server/store/library-file.js';
import { LibraryRepo } from '../server/store/library-repo.js';

/** The bench's catalogue with plausible sizes and times, and a front cover per track. */
function catalogue(tracks: number, root: string): LibraryIndex {
  return catalogueOf(tracks, root, (i) => ({
    size: 4_000_000 + ((i * 7919) % 6_000_000),
    mtimeMs: 1_700_000_000_000 + i * 1000.123,
    dev: 2049,
    ino: 1_000_000 + i,
    artwork: [
      {
        pos: 0,
        type: 'front',
        mime: 'image/jpeg',
        width: 600,
        height: 600,
        size: 80_000 + (Math.floor(i / 10) % 1000),
      },
    ],
  }));
}

function heapMb(): number {
  globalThis.gc?.();
  globalThis.gc?.();
  // Typed arrays live outside the heap: counted too.
  return (v8.getHeapStatistics().used_heap_size + process.memoryUsage().arrayBuffers) / 2 ** 20;
}

interface Node {
  type: string;
  name: string;
  selfSize: number;
}

/** The largest constructors of a snapshot by their objects' own sizes. */
async function summarise(file: string): Promise<void> {
  const snapshot = JSON.parse(await readFile(file, 'utf8')) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
    nodes: number[];
    strings: string[];
  };
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const width = fields.length;
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const totals = new Map<string, { count: number; bytes: number }>();
  for (let at = 0; at < snapshot.nodes.length; at += width) {
    const node: Node = {
      type: types[snapshot.nodes[at + typeAt!]!]!,
      name: snapshot.strings[snapshot.nodes[at + nameAt!]!]!,
      selfSize: snapshot.nodes[at + sizeAt!]!,
    };
    const key = ['object', 'closure', 'array'].includes(node.type) ? `${node.type}:${node.name}` : node.type;
    const total = totals.get(key) ?? { count: 0, bytes: 0 };
    total.count++;
    total.bytes += node.selfSize;
    totals.set(key, total);
  }
  const rows = [...totals].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, 25);
  for (const [key, { count, bytes }] of rows)
    console.log(
      `  ${(bytes / 2 ** 20).toFixed(1).padStart(8)} MB ${String(count).padStart(9)}  ${key.slice(0, 80)}`,
    );
}

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const tracks = Number(flag('--tracks') ?? 200_000);
if (!globalThis.gc) console.error('run with --expose-gc for exact heap figures');

const dir = await mkdtemp(path.join(tmpdir(), 'melon-library-memory-'));
try {
  const file = path.join(dir, 'library.json');
  // As an older Melon wrote it (one line), or as this one does (a record a line).
  if (args.includes('--one-line'))
    await writeFile(file, JSON.stringify({ schemaVersion: 1, ...catalogue(tracks, '/music') }));
  else await writeLibraryFile(file, catalogue(tracks, '/music'));
  const fileMb = (await stat(file)).size / 2 ** 20;
  const base = heapMb();
  const rssBase = process.memoryUsage().rss / 2 ** 20;
  let started = performance.now();
  const repo = await LibraryRepo.open(file);
  const loadMs = performance.now() - started;
  const afterStore = heapMb();
  started = performance.now();
  const catalog = new LibraryCatalog(repo.index());
  const catalogMs = performance.now() - started;
  const afterCatalog = heapMb();
  started = performance.now();
  const some = catalog.artistsByName()[0]!.id;
  catalog.orders.newestAlbums();
  catalog.orders.albumsByArtist();
  catalog.orders.albumsByYear();
  catalog.orders.albumsOfYears(1960, 2030);
  catalog.orders.albumsOfGenre('rock');
  catalog.orders.tracksOfGenre('rock');
  catalog.orders.tracksOfArtist(some);
  const ordersMs = performance.now() - started;
  const afterOrders = heapMb();
  // The search service's name indexes of the snapshot.
  const search = [
    NameIndex.of(catalog.tracksByName(), (track) => track.name),
    NameIndex.of(catalog.albumsByName(), (album) => album.name),
    NameIndex.of(catalog.artistsByName(), (artist) => artist.name),
  ];
  const afterSearch = heapMb();
  // What a ListenBrainz scrobbler's first listen builds (the history service keeps it).
  started = performance.now();
  const matcher = new TrackMatcher(repo.index());
  const matcherMs = performance.now() - started;
  const afterMatcher = heapMb();
  const rss = process.memoryUsage().rss / 2 ** 20;
  const perTrack = (mb: number) => Math.round((mb * 2 ** 20) / tracks);
  console.log(
    JSON.stringify({
      tracks,
      libraryJsonMb: +fileMb.toFixed(1),
      storeHeapMb: +(afterStore - base).toFixed(1),
      storeBytesPerTrack: perTrack(afterStore - base),
      catalogHeapMb: +(afterCatalog - afterStore).toFixed(1),
      ordersHeapMb: +(afterOrders - afterCatalog).toFixed(1),
      totalHeapMb: +(afterOrders - base).toFixed(1),
      totalBytesPerTrack: perTrack(afterOrders - base),
      searchHeapMb: +(afterSearch - afterOrders).toFixed(1),
      matcherHeapMb: +(afterMatcher - afterSearch).toFixed(1),
      rssGrowthMb: Math.round(rss - rssBase),
      loadMs: Math.round(loadMs),
      catalogMs: Math.round(catalogMs),
      ordersMs: Math.round(ordersMs),
      matcherMs: Math.round(matcherMs),
    }),
  );
  if (args.includes('--snapshot')) {
    const shot = v8.writeHeapSnapshot(path.join(dir, 'library.heapsnapshot'));
    await summarise(shot);
  }
  // Keep everything reachable until measured.
  if (repo.index().tracks.length !== tracks || !matcher || search.length !== 3)
    throw new Error('lost tracks');
} finally {
  await rm(dir, { recursive: true, force: true });
}
