/**
 * Password hashing (scrypt) in a worker thread of its own, at a low OS priority. A hash keeps a core
 * busy for a while. Node runs it in its thread pool by default, beside file reads, where a few
 * sign-ins at once (a household opening its apps, an app signing in twice) take every core of a
 * two-core NAS: the event loop then waits for the scheduler, and so does every other member's
 * request. One thread runs the hashes one after another, so there is always a core left. On Linux
 * the thread lowers its own priority (a nice value is per thread there), so the event loop comes
 * first even when something else takes that core. A sign-in waits for the hashes before it, which
 * the sign-in throttle keeps few.
 *
 * The worker runs source text, evaluated: it needs nothing but Node's own modules, and so runs the
 * same from the built server, the sources and the desktop app's archive.
 */
import { scrypt, type ScryptOptions } from 'node:crypto';
import { Worker } from 'node:worker_threads';

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { scryptSync } = require('node:crypto');
try {
  // "PID/task/TID": this thread's id, whose nice value Linux sets on its own.
  const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  if (tid > 0) require('node:os').setPriority(tid, 10);
} catch {}
parentPort.on('message', ({ id, password, salt, keyLength, options }) => {
  try {
    const key = scryptSync(password, salt, keyLength, options);
    parentPort.postMessage({ id, key });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error) });
  }
});
`;

/** The worker's heap holds a message at a time; scrypt's own memory is outside it. */
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 };

interface Pending {
  resolve: (key: Buffer) => void;
  reject: (error: Error) => void;
}

interface HashingThread {
  worker: Worker;
  /** The checks posted to this thread and not answered yet, by id. */
  pending: Map<number, Pending>;
}

let current: HashingThread | null = null;
/** Set when a thread failed before it ever answered: it would again, so the pool hashes instead. */
let unusable = false;
let nextId = 0;

/** The thread, started at the first hash; null when none can be, or one could not work. */
function thread(): HashingThread | null {
  if (current) return current;
  if (unusable) return null;
  let worker: Worker;
  try {
    worker = new Worker(WORKER_SOURCE, { eval: true, resourceLimits: RESOURCE_LIMITS });
  } catch {
    return null;
  }
  const started: HashingThread = { worker, pending: new Map() };
  let answered = false;
  // Idle, it must not keep a stopping server alive; a hash asked for must finish (`scryptKey`).
  worker.unref();
  worker.on('message', (answer: { id: number; key?: Uint8Array; error?: string }) => {
    answered = true;
    const job = started.pending.get(answer.id);
    started.pending.delete(answer.id);
    if (started.pending.size === 0) worker.unref();
    if (!job) return;
    if (answer.key) job.resolve(Buffer.from(answer.key.buffer, answer.key.byteOffset, answer.key.length));
    else job.reject(new Error(answer.error ?? 'scrypt failed'));
  });
  // Only this thread's checks fail with it; the next check starts another thread.
  const lost = (error: Error) => {
    if (current === started) current = null;
    if (!answered) unusable = true;
    for (const job of started.pending.values()) job.reject(error);
    started.pending.clear();
  };
  worker.on('error', lost);
  worker.on('exit', (code) => lost(new Error(`the password thread stopped (${code})`)));
  current = started;
  return started;
}

/** scrypt's key for `password`, derived in the password thread (in the thread pool if there is none). */
export function scryptKey(
  password: string,
  salt: Buffer,
  keyLength: number,
  options: ScryptOptions,
): Promise<Buffer> {
  const hashing = thread();
  if (!hashing) {
    return new Promise((resolve, reject) =>
      scrypt(password, salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key))),
    );
  }
  return new Promise((resolve, reject) => {
    const id = nextId++;
    hashing.pending.set(id, { resolve, reject });
    hashing.worker.ref();
    // The salt in a buffer of its own: a small Buffer is a view of a shared pool, all of which
    // would be copied across.
    hashing.worker.postMessage({ id, password, salt: new Uint8Array(salt), keyLength, options });
  });
}
