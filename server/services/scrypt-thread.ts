/**
 * Password hashing (scrypt) in a worker thread of its own, at a low OS priority. A hash keeps a core
 * busy for tens of ms. Node runs it in its thread pool by default, beside file reads, where a few
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

let worker: Worker | null = null;
let nextId = 0;
const pending = new Map<number, Pending>();

/** The thread, started at the first hash; null when none can be started. */
function thread(): Worker | null {
  if (worker) return worker;
  try {
    const started = new Worker(WORKER_SOURCE, { eval: true, resourceLimits: RESOURCE_LIMITS });
    // Idle, it must not keep a stopping server alive; a hash asked for must finish (`scryptKey`).
    started.unref();
    started.on('message', (answer: { id: number; key?: Uint8Array; error?: string }) => {
      const job = pending.get(answer.id);
      pending.delete(answer.id);
      if (pending.size === 0) started.unref();
      if (!job) return;
      if (answer.key) job.resolve(Buffer.from(answer.key.buffer, answer.key.byteOffset, answer.key.length));
      else job.reject(new Error(answer.error ?? 'scrypt failed'));
    });
    const lost = (error: Error) => {
      if (worker === started) worker = null;
      for (const job of pending.values()) job.reject(error);
      pending.clear();
    };
    started.on('error', lost);
    started.on('exit', (code) => lost(new Error(`the password thread stopped (${code})`)));
    worker = started;
    return started;
  } catch {
    return null;
  }
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
    pending.set(id, { resolve, reject });
    hashing.ref();
    hashing.postMessage({ id, password, salt, keyLength, options });
  });
}
