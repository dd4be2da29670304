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
import { Worker } from 'node:worker_threads';

export class SyncWorkers<Batch, Answer> {
  private readonly idle: Worker[];
  private readonly all: Worker[];
  private readonly waiting: Array<(worker: Worker) => void> = [];

  /** `source` is CommonJS that answers each message on `parentPort` with one message. */
  constructor(source: string, count: number) {
    this.all = Array.from({ length: count }, () => new Worker(source, { eval: true }));
    this.idle = [...this.all];
  }

  /** The worker's answer to `batch`, from the next idle worker; rejects when the worker fails. */
  async run(batch: Batch): Promise<Answer> {
    const worker = this.idle.pop() ?? (await new Promise<Worker>((resolve) => this.waiting.push(resolve)));
    try {
      return await answer<Answer>(worker, batch);
    } finally {
      const next = this.waiting.shift();
      if (next) next(worker);
      else this.idle.push(worker);
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.all.map((worker) => worker.terminate()));
  }
}

function answer<Answer>(worker: Worker, batch: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const done = (): void => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const onMessage = (value: Answer): void => {
      done();
      resolve(value);
    };
    const onError = (error: Error): void => {
      done();
      reject(error);
    };
    const onExit = (code: number): void => {
      done();
      reject(new Error(`A file system worker exited (${code})`));
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage(batch);
  });
}
