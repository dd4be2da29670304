import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import type { SearchResult } from '../../server/contract/playback.js';
import { searchKey } from '../../server/services/playback/search-index.js';
import { album, artist, fakeScanner, libraryOf, makeLibrary, track } from '../factories/library.js';
import { makeUser } from '../factories/users.js';
import { problem, useTestServer } from '../support/server.js';

/** GET /api/search over real HTTP (docs/API.md, Search). */
const scanner = fakeScanner(
  libraryOf([
    artist('ar1', 'Beyoncé', [album('al1', 'Lemonade', [track('t1', 'Halo')])]),
    artist('ar2', 'Sigur Rós', [album('al2', 'Ágætis byrjun', [track('t2', 'Hoppípolla')])]),
    artist('ar3', 'The Beatles', [
      album('al3', 'Abbey Road', [track('t3', 'Come Together'), track('t4', 'Here Comes the Sun')]),
    ]),
    artist('ar4', 'Straßenjungs'),
    artist('ar5', 'Røyksopp'),
    // Tracks of neither album nor artist.
    track('t5', 'Welcome Home'),
    track('t6', 'Outcome'),
    track('t7', 'Comet'),
    track('t8', 'CAFÉ DEL MAR'),
  ]),
);
const t = useTestServer({ scanner });

async function search(query: string, token = t.adminToken): Promise<SearchResult> {
  const response = await t.call(`/api/search?${query}`, { token });
  expect(response.status, query).toBe(200);
  return (await response.json()) as SearchResult;
}
const names = (items: Array<{ name: string }>) => items.map((item) => item.name);

describe('GET /api/search', () => {
  it('ignores case and accents both ways', async () => {
    expect(names((await search('q=beyonce')).artists)).toEqual(['Beyoncé']);
    expect(names((await search('q=BEYONCÉ')).artists)).toEqual(['Beyoncé']);
    expect(names((await search('q=sigur%20ros')).artists)).toEqual(['Sigur Rós']);
    expect(names((await search('q=agaetis')).albums)).toEqual(['Ágætis byrjun']);
    expect(names((await search('q=strassen')).artists)).toEqual(['Straßenjungs']);
    expect(names((await search('q=royksopp')).artists)).toEqual(['Røyksopp']);
    expect(names((await search('q=cafe%20del')).tracks)).toEqual(['CAFÉ DEL MAR']);
    expect(names((await search('q=hoppipolla')).tracks)).toEqual(['Hoppípolla']);
  });

  it('ranks names starting with the query, then word starts, then the rest', async () => {
    const result = await search('q=come');
    expect(names(result.tracks)).toEqual([
      'Come Together',
      'Comet',
      'Here Comes the Sun',
      'Outcome',
      'Welcome Home',
    ]);
  });

  it('pages each kind on its own for protocol adapters (Subsonic search3)', () => {
    const caller = {
      userId: null,
      username: 'adapter',
      role: 'Pass' as const,
      expiresAt: Infinity,
      inviteId: null,
    };
    const result = t.server.services.search.searchWindows(caller, 'come', {
      tracks: { count: 2, offset: 1 },
      albums: { count: 0, offset: 0 },
      artists: { count: 5, offset: 0 },
    });
    expect(names(result.tracks)).toEqual(['Comet', 'Here Comes the Sun']);
    expect(result.albums).toEqual([]);
  });

  it('answers tracks, albums and artists in the shapes of the library lists', async () => {
    const user = await makeUser(t, { role: 'Pass' });
    const result = await search('q=abbey', user.token);
    expect(result.albums).toHaveLength(1);
    expect(result.albums[0]).toMatchObject({ id: 'al3', name: 'Abbey Road', trackCount: 2 });
    const tracks = await search('q=halo', user.token);
    expect(tracks.tracks[0]).toMatchObject({
      id: 't1',
      name: 'Halo',
      album: { id: 'al1' },
      userRating: null,
    });
    expect(tracks.tracks[0]).not.toHaveProperty('path');
    const empty = await search('q=zzz');
    expect(empty).toEqual({ tracks: [], albums: [], artists: [] });
  });

  it('limits each kind to count (1–100, default 20)', async () => {
    expect((await search('q=o&count=2')).tracks).toHaveLength(2);
    expect((await search('q=o')).tracks.length).toBeGreaterThan(2);
    for (const query of ['q=o&count=0', 'q=o&count=101', 'q=o&count=x', 'count=5', 'q=']) {
      const response = await t.call(`/api/search?${query}`, { token: t.adminToken });
      expect(response.status, query).toBe(400);
      expect((await problem(response)).code).toBe('invalid_parameter');
    }
  });

  it('treats punctuation as a word break and finds nothing for a query of punctuation only', async () => {
    expect(names((await search('q=here-comes')).tracks)).toEqual(['Here Comes the Sun']);
    expect(await search('q=%25%25')).toEqual({ tracks: [], albums: [], artists: [] });
  });

  it('sees a library change at once', async () => {
    scanner.set(libraryOf([artist('ar9', 'Mø', [track('t9', 'Lean On')])]));
    const scan = await t.call('/api/library/scan', { method: 'POST', token: t.adminToken });
    expect(scan.status).toBe(202);
    await t.server.services.library.waitForIdle();
    expect(names((await search('q=mo')).artists)).toEqual(['Mø']);
    expect((await search('q=halo')).tracks).toEqual([]);
  });
});

describe('the search index', () => {
  it('normalises names: compatibility forms, marks, case, punctuation', () => {
    expect(searchKey('Beyoncé')).toBe(' beyonce');
    expect(searchKey('ﬁre ①')).toBe(' fire 1');
    expect(searchKey('  AC/DC!! ')).toBe(' ac dc');
    expect(searchKey('...')).toBe('');
  });

  it('answers within 20 ms of CPU time at the 99th percentile over 100,000 tracks', async () => {
    const words = ['love', 'night', 'blue', 'dance', 'heart', 'fire', 'rain', 'dream', 'city', 'light'];
    const tracks = Array.from({ length: 100_000 }, (_, i) => ({
      id: `t${i}`,
      name: `${words[i % 10]} ${words[(i * 7) % 10]} Sóng ${i}`,
      albumId: null,
    }));
    scanner.set(makeLibrary({ artists: [], albums: [], tracks }));
    await t.call('/api/library/scan', { method: 'POST', token: t.adminToken });
    await t.server.services.library.waitForIdle();
    const service = t.server.services.search;
    const caller = {
      userId: null,
      username: 'bench',
      role: 'Admin' as const,
      expiresAt: Infinity,
      inviteId: null,
    };
    await service.warm();
    const queries = ['love', 'song 99', 'ght', 'zzz', 'DREAM city', 'sóng 12345', 'e'];
    for (const query of queries) service.search(caller, query, 20);
    // CPU time, not wall time: on this shared 2-core machine other jobs stretch wall times at random
    // (npm run bench measures the wall time over HTTP, searchP99Ms).
    const cpu: number[] = [];
    const wall: number[] = [];
    for (let i = 0; i < 350; i += 1) {
      const started = performance.now();
      const before = process.cpuUsage();
      service.search(caller, queries[i % queries.length]!, 20);
      const used = process.cpuUsage(before);
      wall.push(performance.now() - started);
      cpu.push((used.user + used.system) / 1000);
    }
    const p = (list: number[], q: number) => [...list].sort((a, b) => a - b)[Math.ceil(list.length * q) - 1]!;
    console.log(
      `search over 100,000 tracks: CPU p50 ${p(cpu, 0.5).toFixed(2)} / p99 ${p(cpu, 0.99).toFixed(2)} ms, ` +
        `wall p50 ${p(wall, 0.5).toFixed(2)} / p99 ${p(wall, 0.99).toFixed(2)} ms`,
    );
    expect(p(cpu, 0.99)).toBeLessThan(20);
  }, 60_000);
});
