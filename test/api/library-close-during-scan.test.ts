import { describe, expect, it } from 'vitest';
import { startTestServer } from '../support/server.js';
import { tempDirPerFile } from '../support/temp-dir.js';
import { watchWorkers, writeAlbumFolders } from '../support/worker-threads.js';

const temp = tempDirPerFile('melon-close-during-scan-');
const workers = watchWorkers();

describe('closing the server during a scan', () => {
  it('stops a large library’s walk and leaves no worker thread running once close resolves', async () => {
    // The desktop app restarts the server in its own process: threads left behind would pile up.
    const music = temp.path('music');
    await writeAlbumFolders(music);
    const started = workers.nextStart();
    const t = await startTestServer({ config: { libraryDirs: [music] }, whileStarting: true });
    await started;
    await t.server.close(0);
    expect(workers.running).toBe(0);
    await t.stop();
  });
});
