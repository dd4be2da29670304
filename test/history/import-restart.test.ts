import { afterAll, expect, it } from 'vitest';
import { makeUser } from '../factories/users.js';
import { loginToken, startTestServer, type TestServer } from '../support/server.js';
import { listenBrainzLines, type SampleListen } from './samples.js';
import { historyServer, playCount, upload, waitForImport, type ImportProgress } from './support.js';

let t: TestServer;
afterAll(() => t?.stop());

it('resumes an import a stop interrupted, counting every listen once', async () => {
  t = await startTestServer(historyServer());
  const user = await makeUser(t);
  const tracks: Array<[string, string]> = [
    ['Rick Astley', 'Never Gonna Give You Up'],
    ['Beyoncé', 'Crazy in Love'],
    ['The Beatles', 'Something'],
  ];
  const start = Date.parse('2020-01-01T00:00:00Z');
  const listens: SampleListen[] = Array.from({ length: 30_000 }, (_, i) => ({
    at: new Date(start + i * 60_000).toISOString(),
    artist: tracks[i % 3]![0],
    title: tracks[i % 3]![1],
  }));
  const response = await upload(t, user.token, { source: 'listenbrainz' }, listenBrainzLines(listens));
  expect(response.status).toBe(202);
  const { id } = (await response.json()) as { id: string };
  // Stop once the first batches are durable, before the end.
  let progress: ImportProgress;
  do {
    progress = (await (
      await t.call(`/api/stats/import/${id}`, { token: user.token })
    ).json()) as ImportProgress;
  } while (progress.entriesRead === 0 && !progress.done);
  expect(progress.done).toBe(false);
  t = await t.restart();
  const token = await loginToken(t.call, user.username, user.password);
  const report = await waitForImport(t, token, id);
  expect(report).toMatchObject({ status: 'done', entriesRead: 30_000, refused: 0 });
  // The restart went on after the entries the saved progress counted: none were read twice.
  expect(report).toMatchObject({ matched: 30_000, duplicates: 0 });
  expect(await playCount(t, user)).toBe(30_000);
});
