import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import http, { type ClientRequest, type RequestOptions } from 'node:http';
import {
  configureRequestOptions,
  configureRequestUrl,
  HttpExecutor,
  type DownloadOptions,
} from 'builder-util-runtime';
import pkg from 'electron-updater';
import type { AppAdapter } from 'electron-updater/out/AppAdapter.js';
import { describe, expect, it, vi } from 'vitest';
import { ElectronUpdaterInstaller } from '../../../app/updater.js';
import { AppError } from '../../../server/errors.js';
import { createMemoryLogger } from '../../../server/logger.js';
import type { InstallProgress, Release } from '../../../server/services/updates/update-service.js';
import {
  defaultBinary,
  fakeReleasesPerFile,
  installerNames,
  OWNER,
  REPO,
} from '../../support/fake-release-server.js';
import { tempDirPerTest } from '../../support/temp-dir.js';

// The Electron binary is not available here; nothing in this test may load the real module.
vi.mock('electron', () => ({}));

const { DebUpdater } = pkg;

/** electron-updater's HTTP executor, on Node's http module instead of Electron's net. */
class NodeHttpExecutor extends HttpExecutor<ClientRequest> {
  createRequest(options: RequestOptions, callback: (response: unknown) => void): ClientRequest {
    // A fresh socket per request: builder-util-runtime adds a timeout listener per request to the socket.
    const request = http.request({ ...options, agent: false });
    request.on('response', callback);
    return request;
  }

  download(url: URL, destination: string, options: DownloadOptions): Promise<string> {
    return options.cancellationToken.createPromise<string>((resolve, reject, onCancel) => {
      const requestOptions: RequestOptions = { headers: options.headers ?? undefined };
      configureRequestUrl(url, requestOptions);
      configureRequestOptions(requestOptions);
      this.doDownload(
        requestOptions,
        {
          destination,
          options,
          onCancel,
          callback: (error) => (error ? reject(error) : resolve(destination)),
          responseHandler: null,
        },
        0,
      );
    });
  }
}

const releases = fakeReleasesPerFile();
const temp = tempDirPerTest('melon-eu-');

async function makeUpdater(currentVersion = '1.2.0') {
  const configPath = temp.path('app-update.yml');
  await writeFile(
    configPath,
    [
      'provider: github',
      `owner: ${OWNER}`,
      `repo: ${REPO}`,
      `host: ${releases.server.host}`,
      'protocol: http',
      'updaterCacheDirName: melon-updater',
      '',
    ].join('\n'),
  );
  const quits: string[] = [];
  const app: AppAdapter = {
    version: currentVersion,
    name: 'Melon',
    isPackaged: true,
    appUpdateConfigPath: configPath,
    userDataPath: temp.path('user'),
    baseCachePath: temp.path('cache'),
    whenReady: () => Promise.resolve(),
    relaunch: () => quits.push('relaunch'),
    quit: () => quits.push('quit'),
    onQuit: () => undefined,
  };
  const updater = new DebUpdater(null, app);
  updater.forceDevUpdateConfig = true;
  updater.updateConfigPath = configPath;
  updater.disableDifferentialDownload = true;
  updater.logger = null;
  // The test seam: electron-updater's own HTTP layer, pointed at Node's http instead of Electron.
  (updater as unknown as { httpExecutor: HttpExecutor<ClientRequest> }).httpExecutor = new NodeHttpExecutor();
  return { updater, quits };
}

const release = (version: string, prerelease = false): Release => ({
  version,
  tag: `v${version}`,
  notes: '',
  prerelease,
  assets: [],
});

describe('ElectronUpdaterInstaller (electron-updater against the fake GitHub)', () => {
  it('finds the new version, downloads it and verifies its sha512', async () => {
    releases.server.releases = [{ tag: 'v1.3.0', body: 'new' }, { tag: 'v1.2.0' }];
    const { updater } = await makeUpdater();
    const logger = createMemoryLogger();
    const beforeExit = vi.fn(() => Promise.resolve());
    const installer = new ElectronUpdaterInstaller({ updater, logger, beforeExit });
    expect(updater.autoDownload).toBe(false);
    const progress: InstallProgress[] = [];
    const prepared = await installer.prepare(release('1.3.0'), (p) => progress.push(p));
    expect(prepared.version).toBe('1.3.0');
    expect(releases.server.count(`/${OWNER}/${REPO}/releases/download/v1.3.0/latest-linux.yml`)).toBe(1);
    expect(
      releases.server.count(`/${OWNER}/${REPO}/releases/download/v1.3.0/${installerNames('1.3.0').deb}`),
    ).toBe(1);
    expect(releases.server.count(`/api/v3/repos/${OWNER}/${REPO}/releases/latest`)).toBe(1);
    const downloaded = temp.path('cache', 'melon-updater', 'pending', installerNames('1.3.0').deb);
    const bytes = await readFile(downloaded);
    expect(createHash('sha512').update(bytes).digest('base64')).toBe(
      createHash('sha512').update(defaultBinary('1.3.0')).digest('base64'),
    );
    expect(progress.at(-1)?.state).toBe('verifying');
  });

  it('reports download progress from the download-progress event', async () => {
    releases.server.releases = [{ tag: 'v1.3.0', binary: defaultBinary('1.3.0', 512 * 1024) }];
    releases.server.slowDownload = { chunkSize: 64 * 1024, delayMs: 150 };
    const { updater } = await makeUpdater();
    const installer = new ElectronUpdaterInstaller({ updater, logger: createMemoryLogger() });
    const progress: InstallProgress[] = [];
    await installer.prepare(release('1.3.0'), (p) => progress.push(p));
    const downloading = progress.filter((p) => p.state === 'downloading');
    expect(downloading.length).toBeGreaterThan(0);
    expect(downloading.at(-1)).toMatchObject({ total: 512 * 1024 });
  });

  it('refuses a download whose sha512 does not match: 400 update_failed', async () => {
    releases.server.releases = [{ tag: 'v1.3.0', wrongSha: true }];
    const { updater, quits } = await makeUpdater();
    const logger = createMemoryLogger();
    const installer = new ElectronUpdaterInstaller({ updater, logger });
    const error = await installer.prepare(release('1.3.0'), () => undefined).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('update_failed');
    expect(logger.lines.join('\n')).toMatch(/sha512 checksum mismatch/);
    expect(quits).toEqual([]);
  });

  it('is update_failed when electron-updater sees no newer version', async () => {
    releases.server.releases = [{ tag: 'v1.2.0' }];
    const { updater } = await makeUpdater();
    const installer = new ElectronUpdaterInstaller({ updater, logger: createMemoryLogger() });
    const error = await installer.prepare(release('1.2.0'), () => undefined).catch((e: unknown) => e);
    expect((error as AppError).code).toBe('update_failed');
  });
});
