import { afterEach, describe, expect, it } from 'vitest';
import type { TrackRecord } from '../../server/domain/library.js';
import type { Scanner } from '../../server/services/library-service.js';
import { fakeScanner, makeLibrary, coverAt } from '../factories/library.js';
import { startTestServer, type TestServer } from '../support/server.js';

let t: TestServer | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

describe('LibraryService', () => {
  it('keeps an artwork edit that lands while a scan runs, instead of the scan’s older read', async () => {
    const library = makeLibrary({ artists: [], albums: [], tracks: [{ id: 't1' }] });
    library.tracks[0]!.artwork = [coverAt(0), coverAt(1)];
    const found = fakeScanner(library);
    // The second scan reads the file before the edit, then waits until the edit is done.
    let release: () => void = () => undefined;
    let scans = 0;
    const scanner: Scanner = async (...args) => {
      scans += 1;
      if (scans !== 2) return found(...args);
      const read = structuredClone(library); // the file as it was before the edit
      await new Promise<void>((resolve) => (release = resolve));
      return { ...(await found(...args)), index: read };
    };
    t = await startTestServer({ scanner });
    const service = t.server.services.library;
    await service.waitForIdle();

    service.startScan();
    const edited: TrackRecord = { ...library.tracks[0]!, artwork: [coverAt(0)], mtimeMs: 5 };
    await service.replaceTrack(edited);
    release();
    await service.waitForIdle();

    const response = await t.call('/api/tracks/t1', { token: t.adminToken });
    expect(((await response.json()) as { artwork: unknown[] }).artwork).toHaveLength(1);
    // And a later scan that reads the edited file is taken as it is.
    found.set({ ...library, tracks: [edited] });
    service.startScan();
    await service.waitForIdle();
    expect(
      ((await (await t.call('/api/tracks/t1', { token: t.adminToken })).json()) as { artwork: unknown[] })
        .artwork,
    ).toHaveLength(1);
  });
});
