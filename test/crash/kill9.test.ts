/**
 * Crash safety: the real server (`tsx server/main.ts`, a child process) takes concurrent writes —
 * log-play, log-skip, ratings, user creation, track-artwork deletion (rewrites audio files) and
 * artist-picture upload/deletion — and is killed with SIGKILL at seeded random moments, KILLS times.
 * After each kill, every store file parses (the JSON documents, every complete line of the play log)
 * and the audio files touched decode to the same samples; after each restart every write that was
 * acknowledged with a 2xx is there, read back through the API, and nothing that was never sent is.
 * A write cut off by the kill may or may not be there; the model allows exactly that.
 */
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { random } from '../../scripts/bench-data.js';
import type { Track } from '../../server/contract/library.js';
import { decodedAudioHash, sha256 } from '../support/audio.js';
import { startChildServer, type ChildServer } from '../support/child-server.js';
import { copyFixtureLibrary, type FixtureCopy } from '../support/fixture-library.js';

const SEED = Number(process.env.CRASH_SEED ?? 9_2026);
const KILLS = Number(process.env.CRASH_KILLS ?? 20);
const ADMIN_PASSWORD = 'crash test admin password';
/** Copies of the fixture album: each tagged file carries 2 pictures to delete. */
const ALBUM_COPIES = 3;
/**
 * A start may take this long (startChildServer's own limit: it is what catches a server that hangs).
 */
const START_LIMIT_MS = 60_000;
/**
 * The most one round may take: a start, its scan, the checks (ffmpeg decodes every audio file the
 * round touched) and a kill. The test's limit is the sum of its rounds' (KILLS plus three clean
 * starts): one fixed limit for the whole test failed on a busy machine while no round was stuck,
 * because its rounds are many and each starts a process.
 */
const ROUND_LIMIT_MS = 2 * START_LIMIT_MS;
vi.setConfig({ testTimeout: (KILLS + 3) * ROUND_LIMIT_MS });
const STORE_JSON = ['users.json', 'library.json', 'ratings.json', 'playlists.json', 'artwork.json'];

let fixtures: FixtureCopy;
let dataDir: string;
let server: ChildServer | undefined;

beforeAll(async () => {
  fixtures = await copyFixtureLibrary('melon-crash-');
  const album = join(fixtures.library, 'Aurora Lane', 'Fixture Album');
  for (let i = 1; i < ALBUM_COPIES; i += 1)
    await cp(album, join(fixtures.library, `Copy ${i}`, 'Aurora Lane', 'Fixture Album'), { recursive: true });
  dataDir = await mkdtemp(join(tmpdir(), 'melon-crash-data-'));
}, 120_000);

afterAll(async () => {
  await server?.kill9();
  await rm(dataDir, { recursive: true, force: true });
  await rm(join(fixtures.library, '..'), { recursive: true, force: true });
});

// ----------------------------------------------------------------------------------------- client

class Api {
  constructor(
    readonly url: string,
    readonly token: string,
  ) {}

  async get<T>(path: string, token = this.token): Promise<T> {
    const response = await fetch(this.url + path, { headers: { authorization: `Bearer ${token}` } });
    if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  }

  /** A write; resolves to the response, or rejects when the connection dies (the kill). */
  post(path: string, body: Record<string, unknown>, token = this.token): Promise<Response> {
    return fetch(this.url + path, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  }

  async upload(path: string, fields: Record<string, string>, bytes: Buffer): Promise<Response> {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.set(name, value);
    form.set('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'cover.png');
    return fetch(this.url + path, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${this.token}` },
    });
  }
}

async function login(url: string, username: string, password: string): Promise<string> {
  const response = await fetch(`${url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (!response.ok) throw new Error(`login ${username}: ${response.status}`);
  return ((await response.json()) as { token: string }).token;
}

async function start(): Promise<ChildServer> {
  server = await startChildServer(
    {
      MELON_DATA_DIR: dataDir,
      MELON_LIBRARY: fixtures.library,
      MELON_ADMIN_PASSWORD: ADMIN_PASSWORD,
    },
    START_LIMIT_MS,
  );
  return server;
}

/** The start-up scan runs in the background; artwork and tracks are read once it has finished. */
async function scanned(api: Api): Promise<void> {
  for (;;) {
    const progress = await api.get<{ running: boolean }>('/api/library/scan');
    if (!progress.running) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

// ------------------------------------------------------------------------------------------ model

/** What the server must show: acknowledged writes, plus at most the ones cut off by a kill. */
interface Model {
  /** Play and skip ids acknowledged, per writer token. */
  plays: Map<string, Set<string>>;
  skipsAcked: Map<string, number>;
  /** Plays and skips the server showed at the last check. */
  seen: Map<string, number>;
  /** Play/skip requests sent (acknowledged or not): the most that may show up. */
  playsSent: Map<string, number>;
  skipsSent: Map<string, number>;
  /** Per track: the last acknowledged rating, and the one in flight when the server died. */
  ratings: Map<string, { acked: number | null; inFlight: number | null }>;
  /** Users acknowledged (id -> name), and names sent without an answer. */
  users: Map<string, string>;
  usersInFlight: Set<string>;
  /** Per track: picture count acknowledged, and whether a deletion was cut off. */
  art: Map<string, { count: number; inFlight: boolean }>;
  /** Per artist: stored profile pictures acknowledged, and the cut-off change (+1 upload, -1 delete). */
  pfp: Map<string, { count: number; inFlight: 0 | 1 | -1 }>;
}

interface Writers {
  stop: () => void;
  done: Promise<void>;
  /** Audio files whose pictures were edited (or being edited) in this round. */
  touched: Set<string>;
}

/** Starts every writer; they run until `stop` or until the server dies under them. */
function startWriters(
  api: Api,
  userToken: string,
  model: Model,
  tracks: Track[],
  artists: string[],
  rnd: () => number,
  round: number,
  png: Buffer,
): Writers {
  let stopped = false;
  const touched = new Set<string>();
  const alive = () => !stopped;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;

  const logger = async (token: string) => {
    while (alive()) {
      const skip = rnd() < 0.3;
      const track = pick(tracks);
      const sent = skip ? model.skipsSent : model.playsSent;
      sent.set(token, (sent.get(token) ?? 0) + 1);
      const response = await api.post(
        `/api/stats/log-${skip ? 'skip' : 'play'}`,
        { id: track.id, device: `round ${round}` },
        token,
      );
      if (response.status !== 200) throw new Error(`log: ${response.status} ${await response.text()}`);
      const { id } = (await response.json()) as { id: string };
      if (skip) model.skipsAcked.set(token, (model.skipsAcked.get(token) ?? 0) + 1);
      else model.plays.get(token)!.add(id);
    }
  };

  const rater = async (track: Track) => {
    const state = model.ratings.get(track.id)!;
    while (alive()) {
      const rating = 1 + Math.floor(rnd() * 10);
      state.inFlight = rating;
      const response = await api.post('/api/stats/rate-track', { id: track.id, rating }, userToken);
      if (response.status !== 200) throw new Error(`rate: ${response.status}`);
      state.acked = rating;
      state.inFlight = null;
    }
  };

  const creator = async () => {
    for (let i = 0; alive(); i += 1) {
      const username = `crash-${round}-${i}`;
      model.usersInFlight.add(username);
      const response = await api.post('/api/users/create', {
        username,
        password: `password ${round} ${i}`,
        role: 'User',
      });
      if (response.status !== 201) throw new Error(`create: ${response.status}`);
      model.users.set(((await response.json()) as { id: string }).id, username);
      model.usersInFlight.delete(username);
    }
  };

  const artDeleter = async () => {
    while (alive()) {
      const candidates = tracks.filter((t) => model.art.get(t.id)!.count > 0 && t.path);
      if (candidates.length === 0) return;
      const track = pick(candidates);
      const state = model.art.get(track.id)!;
      state.inFlight = true;
      touched.add(track.path!);
      const response = await api.post('/api/art/delete/track-art', { id: track.id, pos: 0 });
      if (response.status !== 200) throw new Error(`track-art: ${response.status} ${await response.text()}`);
      state.count -= 1;
      state.inFlight = false;
    }
  };

  const pfpChanger = async (artist: string) => {
    const state = model.pfp.get(artist)!;
    while (alive()) {
      const add = state.count === 0 || rnd() < 0.6;
      state.inFlight = add ? 1 : -1;
      const response = add
        ? await api.upload('/api/art/upload/artist-pfp', { id: artist }, png)
        : await api.post('/api/art/delete/artist-pfp', { id: artist, pos: Math.floor(rnd() * state.count) });
      if (response.status !== (add ? 201 : 200))
        throw new Error(`pfp: ${response.status} ${await response.text()}`);
      state.count += add ? 1 : -1;
      state.inFlight = 0;
    }
  };

  const jobs = [
    logger(api.token),
    logger(api.token),
    logger(userToken),
    logger(userToken),
    ...tracks.slice(0, 3).map(rater),
    creator(),
    artDeleter(),
    ...artists.map(pfpChanger),
  ];
  // A write that fails because the server was killed is expected; any other failure is not.
  const done = Promise.all(
    jobs.map((job) =>
      job.catch((error: unknown) => {
        if (!stopped) throw error;
        const cause = (error as { cause?: { code?: string } }).cause?.code ?? '';
        if (!/ECONNRESET|ECONNREFUSED|EPIPE|UND_ERR_SOCKET|fetch failed/.test(`${cause} ${String(error)}`))
          throw error;
      }),
    ),
  ).then(() => undefined);
  return { stop: () => (stopped = true), done, touched };
}

// ----------------------------------------------------------------------------------------- checks

/** With the server down: every store file parses, and every complete line of the play log. */
async function checkFiles(): Promise<{ lines: number }> {
  for (const name of STORE_JSON) {
    const text = await readFile(join(dataDir, name), 'utf8');
    expect(() => JSON.parse(text) as unknown, name).not.toThrow();
  }
  const log = await readFile(join(dataDir, 'plays.jsonl'), 'utf8');
  const lines = log.split('\n');
  lines.pop(); // after the last newline: empty, or a line torn by the kill (never acknowledged)
  for (const [i, line] of lines.entries())
    expect(() => JSON.parse(line) as unknown, `plays.jsonl:${i + 1}`).not.toThrow();
  return { lines: lines.length };
}

/** After a restart: every acknowledged write is visible through the API; nothing beyond what was sent. */
async function checkApi(
  api: Api,
  userToken: string,
  model: Model,
  tracks: Track[],
  artists: string[],
  png: Buffer,
) {
  for (const [token, acked] of model.plays) {
    const seen = new Set<string>();
    for (let page = 0; ; page += 1) {
      const items = await api.get<Array<{ id: string }>>(
        `/api/stats/recent-tracks?count=1000&page=${page}`,
        token,
      );
      for (const item of items) seen.add(item.id);
      if (items.length < 1000) break;
    }
    const missing = [...acked].filter((id) => !seen.has(id));
    expect(missing, 'acknowledged plays missing after the restart').toEqual([]);
    expect(seen.size).toBeLessThanOrEqual(model.playsSent.get(token) ?? 0);
    const day = 24 * 60 * 60 * 1000;
    const range = `gtDateTime=${new Date(Date.now() - 2 * day).toISOString()}&ltDateTime=${new Date(Date.now() + day).toISOString()}`;
    const activity = await api.get<Array<{ skips: number }>>(`/api/stats/activity?step=day&${range}`, token);
    const skips = activity.reduce((n, step) => n + step.skips, 0);
    expect(skips).toBeGreaterThanOrEqual(model.skipsAcked.get(token) ?? 0);
    expect(skips).toBeLessThanOrEqual(model.skipsSent.get(token) ?? 0);
    model.seen.set(token, seen.size + skips);
  }
  for (const [trackId, state] of model.ratings) {
    const { userRating } = await api.get<Track>(`/api/tracks/${trackId}`, userToken);
    expect([state.acked, state.inFlight ?? state.acked], `rating of ${trackId}`).toContain(userRating);
    state.acked = userRating;
    state.inFlight = null;
  }
  const users = new Map(
    (await api.get<Array<{ id: string; username: string }>>('/api/users')).map((u) => [u.id, u.username]),
  );
  for (const [id, username] of model.users) expect(users.get(id), `user ${username}`).toBe(username);
  for (const [id, username] of users) {
    if (model.users.has(id) || !model.usersInFlight.has(username)) continue;
    model.users.set(id, username); // created, but the answer was lost to the kill
  }
  model.usersInFlight.clear();
  for (const track of tracks) {
    const state = model.art.get(track.id)!;
    const { artwork } = await api.get<Track>(`/api/tracks/${track.id}`);
    expect(
      [state.count, state.inFlight ? state.count - 1 : state.count],
      `pictures of ${track.name}`,
    ).toContain(artwork.length);
    state.count = artwork.length;
    state.inFlight = false;
  }
  const pngHash = sha256(png);
  for (const artist of artists) {
    const state = model.pfp.get(artist)!;
    const { pfpCount } = await api.get<{ pfpCount: number }>(`/api/artists/${artist}`);
    expect([state.count, state.count + state.inFlight], `profile pictures of ${artist}`).toContain(pfpCount);
    state.count = pfpCount;
    state.inFlight = 0;
    for (let pos = 0; pos < pfpCount; pos += 1) {
      const response = await fetch(`${api.url}/api/art/artist-pfp/${artist}/${pos}`, {
        headers: { authorization: `Bearer ${api.token}` },
      });
      expect(response.status).toBe(200);
      expect(sha256(Buffer.from(await response.arrayBuffer())), `picture ${pos} of ${artist}`).toBe(pngHash);
    }
  }
}

async function audioFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter(
      (e) => e.isFile() && /\.(mp3|flac|m4a|ogg|opus|wav)$/.test(e.name) && !e.name.startsWith('corrupt'),
    )
    .map((e) => join(e.parentPath, e.name));
}

// ------------------------------------------------------------------------------------------- test

describe('crash safety', () => {
  it(`keeps every acknowledged write through ${KILLS} kill -9s`, async () => {
    const started = Date.now();
    const rnd = random(SEED);
    const png = await readFile(join(fixtures.images, 'cover.png'));
    // Decoded samples of every audio file before any edit: a picture deletion must not change them.
    const originals = new Map<string, string>();
    for (const file of await audioFiles(fixtures.library)) originals.set(file, await decodedAudioHash(file));

    let child = await start();
    const adminToken = await login(child.url, 'admin', ADMIN_PASSWORD);
    let api = new Api(child.url, adminToken);
    await scanned(api);
    const created = await api.post('/api/users/create', {
      username: 'listener',
      password: 'listener password',
      role: 'User',
    });
    expect(created.status).toBe(201);
    const userToken = await login(child.url, 'listener', 'listener password');
    const tracks = (await api.get<{ items: Track[] }>('/api/tracks?count=1000')).items.filter(
      (t) => t.artwork.length > 0,
    );
    const artists = (await api.get<{ items: Array<{ id: string }> }>('/api/artists?count=1000')).items
      .slice(0, 2)
      .map((a) => a.id);
    const model: Model = {
      plays: new Map([
        [adminToken, new Set()],
        [userToken, new Set()],
      ]),
      skipsAcked: new Map(),
      seen: new Map(),
      playsSent: new Map(),
      skipsSent: new Map(),
      ratings: new Map(tracks.slice(0, 3).map((t) => [t.id, { acked: null, inFlight: null }])),
      users: new Map(),
      usersInFlight: new Set(),
      art: new Map(tracks.map((t) => [t.id, { count: t.artwork.length, inFlight: false }])),
      pfp: new Map(artists.map((a) => [a, { count: 0, inFlight: 0 }])),
    };
    const totalPictures = tracks.reduce((n, t) => n + t.artwork.length, 0);
    // A clean stop first, so the saved play index exists and later starts take the snapshot path.
    expect(await child.stop()).toBe(0);

    let killed = 0;
    let logLines = 0;
    const touchedAll = new Set<string>();
    for (let round = 0; round <= KILLS; round += 1) {
      child = await start();
      api = new Api(child.url, adminToken);
      await scanned(api);
      await checkApi(api, userToken, model, tracks, artists, png);
      if (round === KILLS) break;
      if (round === Math.floor(KILLS / 2)) {
        // Halfway, a clean stop again: the saved index is fresh, then goes stale under the kills.
        expect(await child.stop()).toBe(0);
        child = await start();
        api = new Api(child.url, adminToken);
        await scanned(api);
      }

      const writers = startWriters(api, userToken, model, tracks, artists, rnd, round, png);
      await new Promise((resolve) => setTimeout(resolve, 150 + Math.floor(rnd() * 650)));
      writers.stop();
      await child.kill9();
      killed += 1;
      await writers.done;

      ({ lines: logLines } = await checkFiles());
      for (const file of writers.touched) {
        touchedAll.add(file);
        expect(await decodedAudioHash(file), relative(fixtures.library, file)).toBe(originals.get(file));
      }
    }
    await child.stop();
    // Every audio file still decodes to its original samples, edited or not.
    for (const [file, hash] of originals)
      expect(await decodedAudioHash(file), relative(fixtures.library, file)).toBe(hash);

    const acked = {
      plays: [...model.plays.values()].reduce((n, s) => n + s.size, 0),
      skips: [...model.skipsAcked.values()].reduce((n, v) => n + v, 0),
      users: model.users.size,
      pictures: totalPictures - [...model.art.values()].reduce((n, s) => n + s.count, 0),
    };
    const sent = [...model.playsSent.values(), ...model.skipsSent.values()].reduce((n, v) => n + v, 0);
    const seen = [...model.seen.values()].reduce((n, v) => n + v, 0);
    console.log(
      `crash: ${killed} kill -9s in ${((Date.now() - started) / 1000).toFixed(1)} s; acknowledged ${acked.plays} plays, ` +
        `${acked.skips} skips (${sent} sent, ${seen} kept: ${seen - acked.plays - acked.skips} cut off by a kill landed anyway), ${acked.users} users, ${acked.pictures} track pictures deleted ` +
        `(${touchedAll.size} audio files rewritten), ${[...model.pfp.values()].reduce((n, s) => n + s.count, 0)} artist pictures kept; ` +
        `play log ${logLines} lines; every acknowledged write present after every restart`,
    );
    expect(killed).toBe(KILLS);
    expect(acked.plays).toBeGreaterThan(0);
  });
});
