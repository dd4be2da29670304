import yauzl from 'yauzl';

/**
 * The history files inside an export ZIP, read with yauzl: its central directory first (names and
 * sizes, no data), then each chosen entry as a stream, inflated as it is read, so a ZIP is never
 * whole in memory. The limits are checked on the central directory before anything is inflated,
 * and yauzl checks as it inflates that an entry is no larger than the directory said.
 */

/** The most entries a ZIP may have (ListenBrainz's export has one a month of listening). */
export const MAX_ZIP_ENTRIES = 10_000;
/**
 * The most an entry may be larger than its compressed bytes: listening history compresses some tens
 * of times at most, a ZIP bomb's deflated entries near deflate's own limit (about a thousand).
 */
export const MAX_COMPRESSION_RATIO = 200;
/** Below this an entry's ratio is not checked: it cannot unpack to much however it compresses. */
const RATIO_FLOOR_BYTES = 1024 * 1024;

/** The ZIP's local file header signature, the first bytes of any ZIP file. */
export const isZip = (head: Buffer): boolean =>
  head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;

export class ZipRefusedError extends Error {}

export interface ZipEntryInfo {
  name: string;
  size: number;
}

/**
 * The entries `choose` takes (by name), in the ZIP's order, with their unpacked sizes; refuses a ZIP
 * over the limits: more than MAX_ZIP_ENTRIES entries, chosen entries that unpack to more than
 * `maxTotalBytes` or more than MAX_COMPRESSION_RATIO times their size, encrypted ones, or ones
 * packed with a method other than stored or deflated.
 */
export async function listZip(
  path: string,
  choose: (name: string) => boolean,
  maxTotalBytes: number,
): Promise<ZipEntryInfo[]> {
  const zip = await openZip(path);
  try {
    if (zip.entryCount > MAX_ZIP_ENTRIES)
      throw new ZipRefusedError(
        `The ZIP has ${zip.entryCount} entries; Melon reads ZIPs of at most ${MAX_ZIP_ENTRIES}`,
      );
    const chosen: ZipEntryInfo[] = [];
    let total = 0;
    for await (const entry of zip.eachEntry()) {
      if (entry.fileName.endsWith('/') || !choose(entry.fileName)) continue;
      if (entry.isEncrypted()) throw new ZipRefusedError(`'${entry.fileName}' in the ZIP is encrypted`);
      if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8)
        throw new ZipRefusedError(
          `'${entry.fileName}' in the ZIP is packed with method ${entry.compressionMethod}; Melon reads stored and deflated entries`,
        );
      if (
        entry.uncompressedSize > RATIO_FLOOR_BYTES &&
        entry.uncompressedSize > MAX_COMPRESSION_RATIO * Math.max(1, entry.compressedSize)
      )
        throw new ZipRefusedError(
          `'${entry.fileName}' would unpack to ${entry.uncompressedSize} bytes from ${entry.compressedSize}: ` +
            `more than ${MAX_COMPRESSION_RATIO} times, which no listening history is (a ZIP bomb?)`,
        );
      total += entry.uncompressedSize;
      if (total > maxTotalBytes)
        throw new ZipRefusedError(
          `The ZIP's listening history unpacks to more than ${maxTotalBytes} bytes, the most one import reads`,
        );
      chosen.push({ name: entry.fileName, size: entry.uncompressedSize });
    }
    return chosen;
  } finally {
    zip.close();
  }
}

/**
 * The chosen entries' bytes, one entry after another, each as a stream of inflated chunks; `use`
 * must read an entry to its end (or stop early) before asking for the next. The ZIP is open only
 * while this runs.
 */
export async function* readZip(
  path: string,
  choose: (name: string) => boolean,
): AsyncGenerator<{ name: string; chunks: AsyncIterable<Buffer> }> {
  const zip = await openZip(path);
  try {
    for await (const entry of zip.eachEntry()) {
      if (entry.fileName.endsWith('/') || !choose(entry.fileName)) continue;
      const stream = await zip.openReadStreamPromise(entry);
      try {
        yield { name: entry.fileName, chunks: stream as AsyncIterable<Buffer> };
      } finally {
        stream.destroy();
      }
    }
  } finally {
    zip.close();
  }
}

function openZip(path: string): Promise<yauzl.ZipFile> {
  return yauzl
    .openPromise(path, { lazyEntries: true, autoClose: false, validateEntrySizes: true })
    .catch((error: unknown) => {
      throw new ZipRefusedError(
        `The ZIP cannot be read: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
}
