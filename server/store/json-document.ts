import { readFile } from 'node:fs/promises';
import { Low } from 'lowdb';
import type { Adapter } from 'lowdb';
import { writeFileAtomic } from '../fs/atomic-file.js';
import { errnoCode } from '../fs/errno.js';

/** Every store file starts with its schema version so a later Melon can migrate it. */
export interface Versioned {
  schemaVersion: number;
}

/** Migrations from version N (the key) to N + 1. */
export type Migrations = Record<number, (old: Record<string, unknown>) => Record<string, unknown>>;

export class StoreFileError extends Error {}

/** lowdb adapter that writes atomically and fsyncs (lowdb's own file adapters do not fsync). */
class DurableJsonFile<T> implements Adapter<T> {
  constructor(
    private readonly path: string,
    private readonly mode: number,
  ) {}

  async read(): Promise<T | null> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return null;
      throw error;
    }
    try {
      return JSON.parse(text) as T;
    } catch {
      // Never overwrite a file we cannot read: it is the household's data.
      throw new StoreFileError(`${this.path} is not valid JSON; fix or restore it before starting Melon`);
    }
  }

  write(data: T): Promise<void> {
    return writeFileAtomic(this.path, JSON.stringify(data), this.mode);
  }
}

interface Job<T> {
  apply: (data: T) => unknown;
  changed: (result: unknown) => boolean;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * One lowdb JSON file. Changes go through `mutate`, which runs the change on the in-memory data and
 * resolves only once the file holding it is on disk. Changes that queue up while a write is in flight
 * share the next write (group commit). Because changes run one after another, a change function can
 * check and set in one step (e.g. consume an invite code exactly once).
 */
export class JsonDocument<T extends Versioned> {
  private readonly queue: Job<T>[] = [];
  private draining: Promise<void> | null = null;

  private constructor(
    private readonly low: Low<T>,
    readonly path: string,
  ) {}

  static async open<T extends Versioned>(
    path: string,
    defaults: T,
    migrations: Migrations = {},
    mode = 0o600,
  ): Promise<JsonDocument<T>> {
    const low = new Low<T>(new DurableJsonFile<T>(path, mode), defaults);
    await low.read();
    const doc = new JsonDocument(low, path);
    const fresh = low.data === defaults; // no file yet
    const stored = low.data.schemaVersion;
    if (typeof stored !== 'number' || stored > defaults.schemaVersion) {
      throw new StoreFileError(
        `${path} has schema version ${String(stored)}; this Melon understands up to ${defaults.schemaVersion}`,
      );
    }
    let data = low.data as unknown as Record<string, unknown>;
    for (let version = stored; version < defaults.schemaVersion; version++) {
      const migrate = migrations[version];
      if (!migrate) throw new StoreFileError(`${path}: no migration from schema version ${version}`);
      data = { ...migrate(data), schemaVersion: version + 1 };
    }
    low.data = { ...defaults, ...data };
    // Creates the file on first start and records migrations; an up-to-date file is not rewritten
    // (a large library.json is tens of MB: rewriting it would double the time to open it).
    if (fresh || stored < defaults.schemaVersion) await low.write();
    return doc;
  }

  /** The current data. Read it; change it only inside `mutate`. */
  get data(): Readonly<T> {
    return this.low.data;
  }

  /**
   * Apply `change` and persist. `change` must validate before it changes anything: if it throws, its
   * caller gets the error and the data is as before. If the disk write fails, the file is re-read so
   * memory matches what is durable, and every change in that write is rejected.
   * `changed` tells from a result whether the change changed anything (by default it did); a batch
   * of changes that changed nothing is not written: a refused request must not make the disk work.
   */
  mutate<R>(change: (data: T) => R, changed: (result: R) => boolean = () => true): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({
        apply: change,
        changed: changed as (result: unknown) => boolean,
        resolve: resolve as (value: unknown) => void,
        reject,
      });
      this.draining ??= this.drain();
    });
  }

  /**
   * Drops `key` from the record `entries` picks (a user's entry, when the account is deleted) and
   * resolves to whether there was one; nothing is written when there was none.
   */
  dropEntry(entries: (data: T) => Record<string, unknown>, key: string): Promise<boolean> {
    return this.mutate(
      (data) => {
        const record = entries(data);
        if (!Object.hasOwn(record, key)) return false;
        delete record[key];
        return true;
      },
      (dropped) => dropped,
    );
  }

  /** Resolves once every change queued so far is on disk. */
  async flush(): Promise<void> {
    while (this.draining) await this.draining;
  }

  private async drain(): Promise<void> {
    // Let changes that arrive in the same tick join this write.
    await Promise.resolve();
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0);
      const applied: Array<{ job: Job<T>; result: unknown }> = [];
      for (const job of batch) {
        try {
          applied.push({ job, result: job.apply(this.low.data) });
        } catch (error) {
          job.reject(error);
        }
      }
      if (applied.length === 0) continue;
      if (!applied.some(({ job, result }) => job.changed(result))) {
        // Nothing to write: what these changes saw is what the earlier writes made durable.
        for (const { job, result } of applied) job.resolve(result);
        continue;
      }
      try {
        await this.low.write();
        for (const { job, result } of applied) job.resolve(result);
      } catch (error) {
        await this.low.read().catch(() => undefined);
        for (const { job } of applied) job.reject(error);
      }
    }
    // Cleared in the same synchronous step as the empty-queue check, so a change queued right now
    // starts a new drain instead of waiting for this finished one.
    this.draining = null;
  }
}
