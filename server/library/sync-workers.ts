/**
 * A few worker threads that run blocking file-system calls for the main thread, a batch of paths a
 * message. Each async call of `node:fs` is a trip through libuv's thread pool (a promise, a request,
 * a pool thread woken, its answer back on the main thread), which costs several times the system
 * call itself, and a rescan of a collector's library makes hundreds of thousands. A worker makes
 * the same calls synchronously, back to back, and answers a batch at once. A call that never
 * returns (a share that stopped answering) holds up its worker, as it would a pool thread, never
 * the event loop.
 *
 * The workers run source text, evaluated: they need nothing but Node's own modules, and so run the
 * same from the built server, the sources and the desktop app's archive.
 */
import { availableParallelism, totalmem } from 'node:os';
import { Worker } from 'node:worker_threads';

/**
 * A worker holds a batch of paths and its answer, never more: a heap of its own, rather than the
 * server's (which it would otherwise inherit), keeps it cheap on a small NAS, and still holds a few
 * very large folders in one message (docs/BENCHMARKS.md). One that runs out hands its batch back.
 */
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 };

/** Below this much memory, or on two cores, two workers rather than `count` (docs/BENCHMARKS.md). */
const SMALL_MACHINE_BYTES = 2 * 1024 ** 3;

/** How many workers to start for a phase that could use `count`: fewer on a small machine. */
export function workerCount(count: number): number {
  const small = totalmem() <= SMALL_MACHINE_BYTES || availableParallelism() <= 2;
  return small ? Math.min(2, count) : count;
}

/** Test hook: called with each worker as it starts, so a test can count or kill them. */
let onStart: ((worker: Worker) => void) | null = null;
export function onWorkerStart(hook: ((worker: Worker) => void) | null): void {
  onStart = hook;
}

interface Job<Answer> {
  resolve: (answer: Answer) => void;
  reject: (error: Error) => void;
}

export class SyncWorkers<Batch, Answer> {
  private readonly all: Worker[] = [];
  private readonly idle: Worker[] = [];
  private readonly jobs = new Map<Worker, Job<Answer>>();
  private readonly waiting: Array<Job<Worker>> = [];
  private closed = false;
  private closing: Promise<void> | null = null;
  private started = 0;

  /**
   * `source` is CommonJS that answers each message on `parentPort` with one message. Throws when a
   * worker cannot be made, after stopping those already started.
   */
  constructor(source: string, count: number) {
    try {
      for (let i = 0; i < count; i++) {
        const worker = new Worker(source, { eval: true, resourceLimits: RESOURCE_LIMITS });
        this.all.push(worker);
        this.idle.push(worker);
        // Listened to for the worker's whole life: one that fails while idle (it could not start)
        // must neither crash the process with an unhandled 'error' nor be handed out again.
        worker.on('message', (answer: Answer) => this.answered(worker, answer));
        worker.on('error', (error: Error) => this.died(worker, error));
        worker.on('exit', (code: number) =>
          this.died(worker, new Error(`A file system worker exited (${code})`)),
        );
        this.started++;
        onStart?.(worker);
      }
    } catch (error) {
      void this.close();
      throw error;
    }
  }

  /**
   * The answer to `batch`, from the next idle worker; rejects when that worker fails, and at once
   * when no worker is left alive (the caller then does the work another way).
   */
  async run(batch: Batch): Promise<Answer> {
    if (this.closed) throw new Error('The file system workers were stopped');
    const worker = this.idle.pop() ?? (await this.nextIdle());
    // Closed while this call waited for the worker: its exit may already have been seen.
    if (this.closed) throw new Error('The file system workers were stopped');
    return new Promise<Answer>((resolve, reject) => {
      this.jobs.set(worker, { resolve, reject });
      worker.postMessage(batch);
    });
  }

  /** How many workers were started. */
  get count(): number {
    return this.started;
  }

  /** Whether `close` was called. */
  get stopped(): boolean {
    return this.closed;
  }

  /** Whether a worker is left to run a batch. */
  get alive(): boolean {
    return !this.closed && this.all.length > 0;
  }

  /** Stops every worker; what is running or waiting rejects. Resolves once they have all ended. */
  close(): Promise<void> {
    if (this.closing) return this.closing;
    this.closed = true;
    const workers = [...this.all];
    this.fail(new Error('The file system workers were stopped'));
    this.closing = Promise.all(workers.map((worker) => worker.terminate())).then(() => undefined);
    return this.closing;
  }

  private nextIdle(): Promise<Worker> {
    if (this.closed || this.all.length === 0)
      return Promise.reject(new Error('No file system worker is left'));
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  private answered(worker: Worker, answer: Answer): void {
    if (this.closed) return;
    const job = this.jobs.get(worker);
    this.jobs.delete(worker);
    const next = this.waiting.shift();
    if (next) next.resolve(worker);
    else this.idle.push(worker);
    job?.resolve(answer);
  }

  private died(worker: Worker, error: Error): void {
    const job = this.jobs.get(worker);
    this.jobs.delete(worker);
    remove(this.all, worker);
    remove(this.idle, worker);
    job?.reject(error);
    if (this.all.length === 0) this.fail(error);
  }

  /** Rejects every job and every caller waiting for a worker, and forgets the workers. */
  private fail(error: Error): void {
    for (const job of this.jobs.values()) job.reject(error);
    this.jobs.clear();
    for (const waiter of this.waiting.splice(0)) waiter.reject(error);
    this.all.length = 0;
    this.idle.length = 0;
  }
}

function remove(list: Worker[], worker: Worker): void {
  const at = list.indexOf(worker);
  if (at >= 0) list.splice(at, 1);
}
