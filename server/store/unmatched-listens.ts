import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import type { Listen } from '../domain/listen.js';
import { fsyncDir, writeSynced } from '../fs/atomic-file.js';

/**
 * Listens that matched no library track (docs/API.md, Listening history): an append-only JSON Lines
 * file, one listen a line, fsynced per batch. Never rewritten per batch; only `sweep` (after a
 * scan) writes a new file of the listens still unmatched and renames it over the old one.
 */
export class UnmatchedListens {
  private chain: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly path: string,
    private handle: FileHandle,
  ) {}

  static async open(path: string): Promise<UnmatchedListens> {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    return new UnmatchedListens(path, await open(path, 'a', 0o600));
  }

  /** Appends listens; resolves once they are on disk. */
  append(listens: readonly Listen[]): Promise<void> {
    if (listens.length === 0) return this.chain.then(() => undefined);
    const data = listens.map((listen) => JSON.stringify(listen) + '\n').join('');
    return this.serial(async () => {
      await this.handle.write(data);
      await this.handle.datasync();
    });
  }

  /** Every listen in the file, in order (lines that do not parse are skipped). */
  async *read(): AsyncGenerator<Listen> {
    const lines = createInterface({ input: createReadStream(this.path), crlfDelay: Infinity });
    for await (const line of lines) {
      if (!line) continue;
      let listen: Listen | undefined;
      try {
        listen = JSON.parse(line) as Listen;
      } catch {
        continue;
      }
      yield listen;
    }
  }

  /**
   * Offers every listen to `take` in batches; those it does not take stay. When any was taken, the
   * file is replaced by one of the listens that stayed (written beside it, fsynced, renamed); appends
   * wait meanwhile.
   */
  sweep(
    take: (batch: Listen[]) => Promise<boolean[]>,
    batchSize = 5000,
  ): Promise<{ taken: number; kept: number }> {
    return this.serial(async () => {
      // Nothing kept, nothing to offer: no file is written.
      if ((await this.handle.stat()).size === 0) return { taken: 0, kept: 0 };
      const next = `${this.path}.next`;
      let taken = 0;
      let kept = 0;
      await writeSynced(next, 'w', 0o600, async (out) => {
        let batch: Listen[] = [];
        const flush = async () => {
          const took = await take(batch);
          const stay = batch.filter((_, i) => !took[i]);
          taken += batch.length - stay.length;
          kept += stay.length;
          if (stay.length > 0) await out.write(stay.map((l) => JSON.stringify(l) + '\n').join(''));
          batch = [];
        };
        for await (const listen of this.read()) {
          batch.push(listen);
          if (batch.length >= batchSize) await flush();
        }
        if (batch.length > 0) await flush();
      });
      if (taken === 0) {
        // Every listen stayed: the file is as it was.
        await rm(next, { force: true });
        return { taken, kept };
      }
      await this.handle.close();
      await rename(next, this.path);
      await fsyncDir(dirname(this.path));
      this.handle = await open(this.path, 'a', 0o600);
      return { taken, kept };
    });
  }

  async close(): Promise<void> {
    await this.chain.catch(() => undefined);
    await this.handle.close();
  }

  private serial<T>(step: () => Promise<T>): Promise<T> {
    const run = this.chain.then(step, step);
    this.chain = run.catch(() => undefined);
    return run;
  }
}
