import { mkdtemp, rm } from 'node:fs/promises';
import { afterAll, beforeAll, expect } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../server/clock.js';
import { loadConfig, type Config } from '../../server/config.js';
import { createServer, type MelonServer, type ServerDeps } from '../../server/create-server.js';
import { openApiDocument } from '../../server/http/native/openapi.js';
import { createMemoryLogger } from '../../server/logger.js';
import type { LibraryOptions, Scanner } from '../../server/services/library-service.js';
import { checkResponse, type OpenApiDocument } from './openapi.js';

export const ADMIN_USER = 'admin';
export const ADMIN_PASSWORD = 'correct horse battery staple';

export interface TestServer {
  url: string;
  server: MelonServer;
  dataDir: string;
  clock: ManualClock;
  /** Every line the server logged. */
  logs: string[];
  /** An Admin token for the configured first Admin. */
  adminToken: string;
  /**
   * fetch against the server; `token` adds the bearer header. Every response is checked against
   * the OpenAPI document (status, content type, JSON body); a mismatch rejects with a
   * ResponseMismatchError that names it.
   */
  call: (path: string, init?: RequestInit & { token?: string }) => Promise<Response>;
  /** Stops the server; `keepData` leaves the folder for a restart. */
  stop: (keepData?: boolean) => Promise<void>;
  /** Stops and starts a new server on the same data folder (and clock). */
  restart: () => Promise<TestServer>;
}

export interface TestServerOptions {
  dataDir?: string;
  clock?: ManualClock;
  config?: Partial<Config>;
  env?: NodeJS.ProcessEnv;
  /** Replaces the real scanner (see test/factories/library.ts). */
  scanner?: Scanner;
  /**
   * The library's watcher and its timings. Off unless given: a watcher's rescan would race the
   * manual scans other tests count on.
   */
  library?: LibraryOptions;
  /** Check every response against the OpenAPI document (default true). */
  checkResponses?: boolean;
  /** Replaces some of the HTTP server's limits (timeouts, connection cap). */
  httpLimits?: ServerDeps['httpLimits'];
  /** The wait between steps of the plays' load at start: a test holds the load with it. */
  loadTurn?: ServerDeps['loadTurn'];
  /** The wait before reading the library at start: a test holds the library's read with it. */
  libraryTurn?: ServerDeps['libraryTurn'];
  /** How long a request that needs the plays waits for their load at start. */
  startWaitMs?: number;
  /** The process's heap growth, as the entry points hand it (default: V8's, untouched). */
  heapGrowth?: ServerDeps['heapGrowth'];
  /** Hands the server over while its plays still load (default: once they are in and scanned). */
  whileStarting?: boolean;
  /** How long after a stop began the play counting may still be made. */
  countingWithinMs?: number;
}

/**
 * The OpenAPI document of a server's route table (what `GET /api/openapi.json` serves). Every server
 * of a test run has the same routes, so the document is made once per version.
 */
const documents = new Map<string, OpenApiDocument>();
export function documentOf(server: MelonServer): OpenApiDocument {
  const version = server.config.version;
  let doc = documents.get(version);
  if (!doc) {
    doc = openApiDocument(server.routes, version) as unknown as OpenApiDocument;
    documents.set(version, doc);
  }
  return doc;
}

/**
 * One server for a whole test file: started before the file's first test and stopped after its last.
 * The object returned is filled in by the beforeAll hook, so tests use it as they would use
 * startTestServer's result. `options` may be a function, for options made by earlier set-up.
 */
export function useTestServer(
  options: TestServerOptions | (() => TestServerOptions | Promise<TestServerOptions>) = {},
): TestServer {
  const t = {} as TestServer;
  beforeAll(async () => {
    Object.assign(t, await startTestServer(typeof options === 'function' ? await options() : options));
  });
  afterAll(() => t.stop?.());
  return t;
}

/** Starts the real server on 127.0.0.1, port 0, over a fresh data folder. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'melon-test-')));
  const clock = options.clock ?? new ManualClock(Date.now());
  const logger = createMemoryLogger();
  const config = loadConfig(
    {
      MELON_ADMIN_USER: ADMIN_USER,
      MELON_ADMIN_PASSWORD: ADMIN_PASSWORD,
      MELON_RELEASES_URL: 'http://127.0.0.1:9',
      // No member's plays may leave the machine in a test, whatever a test sets.
      MELON_LISTENBRAINZ_URL: 'http://127.0.0.1:9',
      ...options.env,
    },
    { dataDir, port: 0, host: '127.0.0.1', libraryDirs: [], ...options.config },
  );
  const server = await createServer({
    config,
    clock,
    logger,
    scanner: options.scanner,
    library: options.library ?? { watch: false },
    exit: () => undefined,
    httpLimits: options.httpLimits,
    loadTurn: options.loadTurn,
    libraryTurn: options.libraryTurn,
    startWaitMs: options.startWaitMs,
    countingWithinMs: options.countingWithinMs,
    heapGrowth: options.heapGrowth,
  });
  const url = await server.listen();
  // The plays load and the start-up scan run in the background; tests begin once both have finished.
  if (!options.whileStarting) {
    await server.started;
    await server.services.library.waitForIdle();
  }
  const doc = options.checkResponses === false ? null : documentOf(server);
  const call = async (path: string, init: RequestInit & { token?: string } = {}) => {
    const { token, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (token) headers.set('Authorization', `Bearer ${token}`);
    const response = await fetch(url + path, { ...rest, headers });
    if (doc) await checkResponse(doc, rest.method ?? 'GET', path, response);
    return response;
  };
  const adminToken = await loginToken(call, ADMIN_USER, ADMIN_PASSWORD);
  const stop = async (keepData = false) => {
    await server.close(500);
    if (!keepData) await rm(dataDir, { recursive: true, force: true });
  };
  return {
    url,
    server,
    dataDir,
    clock,
    logs: logger.lines,
    adminToken,
    call,
    stop,
    restart: async () => {
      await stop(true);
      return startTestServer({ ...options, dataDir, clock });
    },
  };
}

export async function loginToken(
  call: TestServer['call'],
  username: string,
  password: string,
): Promise<string> {
  const response = await call('/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (response.status !== 200)
    throw new Error(`login of ${username} failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

/** POSTs a form body. */
export function postForm(
  t: Pick<TestServer, 'call'>,
  path: string,
  fields: Record<string, string>,
  token?: string,
) {
  return t.call(path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    token,
  });
}

/** POSTs a JSON body. */
export function postJson(t: Pick<TestServer, 'call'>, path: string, body: unknown, token?: string) {
  return t.call(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    token,
  });
}

/** Reads a problem document and checks its shape (docs/API.md, Conventions). */
export async function problem(
  response: Response,
): Promise<{ status: number; code: string; detail: string } & Record<string, unknown>> {
  const type = response.headers.get('content-type') ?? '';
  if (!type.startsWith('application/problem+json')) {
    throw new Error(`expected a problem document, got ${response.status} ${type}: ${await response.text()}`);
  }
  const body = (await response.json()) as {
    status: number;
    code: string;
    detail: string;
    type: string;
    title: string;
  };
  if (body.type !== 'about:blank' || typeof body.title !== 'string' || body.status !== response.status) {
    throw new Error(`malformed problem document: ${JSON.stringify(body)}`);
  }
  return body;
}

/** Checks that a response is a problem document of this status and code, e.g. "401 invalid_token". */
export async function expectProblem(response: Response, expected: string, label?: string): Promise<void> {
  const { status, code } = await problem(response);
  expect(`${status} ${code}`, label).toBe(expected);
}
