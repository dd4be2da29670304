/**
 * A household for the dashboard's browser tests: a small synthetic library and a few hundred plays
 * over several people, devices and months, logged through the HTTP API as devices would.
 */
import { makeLibrary } from '../factories/library.js';
import { makeUser, type TestUser } from '../factories/users.js';
import { postForm, type TestServer } from '../support/server.js';

const GENRES = ['Rock', 'Jazz', 'Pop', 'Folk', 'Electronic'];
export const library = makeLibrary({
  artists: ['Aurora Lane', 'The Static', 'Harbour Lights', 'June Parade'].map((name, i) => ({
    id: `ar${i}`,
    name,
  })),
  albums: ['Northern', 'Southern', 'Harbour Songs', 'Parade'].map((name, i) => ({
    id: `al${i}`,
    name,
    artistIds: [`ar${i}`],
  })),
  tracks: Array.from({ length: 12 }, (_, i) => ({
    id: `t${i}`,
    name: [
      'Harbour Song',
      'First Light',
      'Static Air',
      'Late Train',
      'Copper',
      'Tide',
      'Lantern',
      'Meadow',
      'Signal',
      'Echo',
      'Paper Moon',
      'Drift',
    ][i],
    albumId: `al${i % 4}`,
    artistIds: [`ar${i % 4}`],
    genres: [GENRES[i % 5]!],
    durationMs: 150_000 + i * 10_000,
  })),
});

export interface Household {
  t: TestServer;
  robin: TestUser;
  kim: TestUser;
  sam: TestUser;
  wall: TestUser;
  /** Plays logged per username (the admin's as `admin`). */
  plays: Record<string, number>;
}

/** Deterministic numbers, so a failing run can be repeated. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1664525 + 1013904223) % 2 ** 32;
    return state / 2 ** 32;
  };
}

const DAY = 86_400_000;

/** Seeds a server started over `library` with the household's people and plays. */
export async function seedHousehold(t: TestServer): Promise<Household> {
  const [robin, kim, sam, wall] = await Promise.all([
    makeUser(t, { username: 'robin' }),
    makeUser(t, { username: 'kim' }),
    makeUser(t, { username: 'sam' }),
    makeUser(t, { username: 'wall', role: 'Pass' }),
  ]);
  await postForm(t, '/api/users/settings', { publicStats: 'false' }, sam.token);
  const now = Date.now();
  const monday = new Date(now);
  monday.setHours(0, 0, 0, 0);
  monday.setDate(monday.getDate() - ((monday.getDay() + 6) % 7));
  const monthStart = new Date(new Date(now).getFullYear(), new Date(now).getMonth(), 1).getTime();
  const next = random(42);
  const people: Array<[string, string, number, Array<string | undefined>]> = [
    ['admin', t.adminToken, 60, ['Laptop', undefined]],
    ['robin', robin.token, 120, ['Kitchen', 'Car', 'Phone', undefined]],
    ['kim', kim.token, 90, ['Kitchen', 'Bedroom']],
    ['sam', sam.token, 40, ['Phone']],
  ];
  const plays: Record<string, number> = { wall: 0 };
  const jobs: Array<() => Promise<void>> = [];
  for (const [name, token, count, devices] of people) {
    plays[name] = count;
    for (let i = 0; i < count; i++) {
      const pick = next();
      // A tenth this week, a fifth earlier this month, the rest over fourteen months.
      const start = pick < 0.1 ? monday.getTime() : pick < 0.3 ? monthStart : now - 420 * DAY;
      const at = Math.floor(start + next() * (now - 60_000 - start));
      const device = devices[Math.floor(next() * devices.length)];
      const track = library.tracks[Math.floor(next() * (name === 'kim' ? 6 : 12))]!;
      const fields: Record<string, string> = { id: track.id, dateTime: new Date(at).toISOString() };
      if (device) fields.device = device;
      jobs.push(async () => {
        const response = await postForm(t, '/api/stats/log-play', fields, token);
        if (response.status !== 200) throw new Error(`log-play: ${response.status} ${await response.text()}`);
      });
    }
  }
  // Eight at a time, as a busy household would.
  for (let i = 0; i < jobs.length; i += 8) await Promise.all(jobs.slice(i, i + 8).map((job) => job()));
  return { t, robin, kim, sam, wall, plays };
}
