import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { readSubmission } from '../../server/http/listenbrainz/submission.js';

/** One submit-listens request the fake received. */
export interface Submission {
  path: string;
  authorization: string | undefined;
  listenType: string;
  payload: Array<Record<string, unknown>>;
  /** performance.now() when it arrived. */
  at: number;
}

/** What the fake answers to the next request. */
export interface FakeAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * A stand-in for ListenBrainz's submit-listens endpoint on 127.0.0.1 (`/1/submit-listens`, or under a
 * prefix). Every request body is checked against ListenBrainz's documented submission format:
 * `listen_type` single (exactly one listen), import or playing_now (one listen, no `listened_at`), a
 * payload of listens with `listened_at` in whole seconds and `track_metadata` with `artist_name`
 * and `track_name`; a body that breaks it is recorded in `violations`. Answers come from `answers`
 * in order, then 200 `{"status":"ok"}`.
 */
export class FakeListenBrainz {
  readonly submissions: Submission[] = [];
  readonly violations: string[] = [];
  /** Every request, whatever its path (to prove nothing was sent). */
  requests = 0;
  readonly answers: FakeAnswer[] = [];
  private waiters: Array<{ count: number; resolve: () => void }> = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(port = 0): Promise<FakeListenBrainz> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    const fake = new FakeListenBrainz(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        fake.requests += 1;
        const text = Buffer.concat(chunks).toString('utf8');
        const answer = fake.take(request.url ?? '', request.headers.authorization, text);
        response.writeHead(answer.status, { 'Content-Type': 'application/json', ...answer.headers });
        response.end(JSON.stringify(answer.body ?? { status: 'ok' }));
      });
    });
    return fake;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** Every listen of every submission of `type`, in order. */
  listens(type: 'single' | 'import' | 'playing_now' | 'any' = 'any'): Array<Record<string, unknown>> {
    return this.submissions
      .filter((submission) => type === 'any' || submission.listenType === type)
      .flatMap((submission) => submission.payload);
  }

  /** Resolves once `count` submissions arrived in all. */
  async received(count: number, timeoutMs = 10_000): Promise<void> {
    if (this.submissions.length >= count) return;
    await Promise.race([
      new Promise<void>((resolve) => this.waiters.push({ count, resolve })),
      new Promise<void>((_, reject) =>
        setTimeout(
          () => reject(new Error(`${this.submissions.length} of ${count} submissions arrived`)),
          timeoutMs,
        ).unref(),
      ),
    ]);
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private take(path: string, authorization: string | undefined, text: string): FakeAnswer {
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch {
      this.violations.push(`not JSON: ${text.slice(0, 80)}`);
      return { status: 400, body: { code: 400, error: 'Cannot parse JSON document' } };
    }
    this.check(document, text);
    const record = document as { listen_type?: unknown; payload?: unknown };
    this.submissions.push({
      path,
      authorization,
      listenType: String(record.listen_type),
      payload: Array.isArray(record.payload) ? (record.payload as Array<Record<string, unknown>>) : [],
      at: performance.now(),
    });
    for (const waiter of [...this.waiters]) {
      if (this.submissions.length >= waiter.count) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
    return this.answers.shift() ?? { status: 200 };
  }

  private check(document: unknown, text: string): void {
    const fail = (why: string): void => {
      this.violations.push(why);
    };
    if (typeof document !== 'object' || document === null) return fail('not an object');
    const { listen_type: type, payload, ...rest } = document as Record<string, unknown>;
    if (Object.keys(rest).length > 0) fail(`extra keys ${Object.keys(rest).join(',')}`);
    if (type !== 'single' && type !== 'import' && type !== 'playing_now')
      return fail(`listen_type ${String(type)}`);
    if (!Array.isArray(payload) || payload.length === 0) return fail('no payload');
    if (type !== 'import' && payload.length !== 1) fail(`${type} with ${payload.length} listens`);
    if (payload.length > 1000) fail('more than 1000 listens');
    for (const listen of payload as Array<Record<string, unknown>>) {
      const meta = listen.track_metadata as Record<string, unknown> | undefined;
      if (typeof meta?.artist_name !== 'string' || meta.artist_name === '') fail('no artist_name');
      if (typeof meta?.track_name !== 'string' || meta.track_name === '') fail('no track_name');
      if (type === 'playing_now' && 'listened_at' in listen) fail('playing_now with listened_at');
      if (type !== 'playing_now' && !Number.isInteger(listen.listened_at))
        fail('listened_at not whole seconds');
    }
    // And the rules of a ListenBrainz server as Melon's own submit-listens applies them.
    try {
      readSubmission(document, Buffer.byteLength(text), Date.now());
    } catch (error) {
      fail(`refused by ListenBrainz's rules: ${String(error)}`);
    }
  }
}
