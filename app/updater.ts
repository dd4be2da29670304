/**
 * The desktop app's installer: electron-updater behind the server's `Installer` interface, so
 * update-melon behaves the same in the app (download, SHA-512 check, quitAndInstall) as headless.
 */
import pkg from 'electron-updater';
import type { AppUpdater, ProgressInfo } from 'electron-updater';
import { badRequest, messageOf } from '../server/errors.js';
import type { Logger } from '../server/logger.js';
import type { Release } from '../server/services/updates/release-source.js';
import type {
  Installer,
  InstallProgress,
  PreparedUpdate,
} from '../server/services/updates/update-service.js';

export interface ElectronUpdaterInstallerOptions {
  /**
   * The updater to drive. Omitted in the app: electron-updater's `autoUpdater` for this platform.
   * Tests pass an updater built from electron-updater's classes with a test AppAdapter, because
   * reading `autoUpdater` creates an Electron adapter and needs the Electron binary.
   */
  updater?: AppUpdater;
  /** Flushes and closes the store before the app quits into the installer. */
  beforeExit?: () => Promise<void>;
  logger: Logger;
  /** Whether to start the new version after installing; true so the server comes back. */
  runAfterInstall?: boolean;
}

const failed = (detail: string) => badRequest('update_failed', detail);

function defaultUpdater(): AppUpdater {
  // Only here, never at import time: the getter creates the Electron adapter.
  const { autoUpdater } = pkg;
  return autoUpdater;
}

export class ElectronUpdaterInstaller implements Installer {
  private readonly updater: AppUpdater;

  constructor(private readonly options: ElectronUpdaterInstallerOptions) {
    this.updater = options.updater ?? defaultUpdater();
    // Downloads happen only when an Admin asks (update-melon), never behind the household's back.
    this.updater.autoDownload = false;
    this.updater.autoInstallOnAppQuit = false;
  }

  async prepare(release: Release, onProgress: (progress: InstallProgress) => void): Promise<PreparedUpdate> {
    const updater = this.updater;
    // The release source already applied the channel; follow it so both agree on pre-releases.
    updater.allowPrerelease = release.prerelease;
    let version: string;
    try {
      const result = await updater.checkForUpdates();
      if (!result) throw new Error('electron-updater is not active (the app is not packaged)');
      if (!result.isUpdateAvailable)
        throw new Error(`electron-updater found no update (${result.updateInfo.version})`);
      version = result.updateInfo.version;
    } catch (error) {
      this.log('update check in electron-updater failed', error);
      throw failed('The update could not be found by the desktop updater.');
    }
    if (version !== release.version) {
      this.options.logger.warn('electron-updater found a different version', {
        expected: release.version,
        found: version,
      });
    }

    const progress = (info: ProgressInfo) =>
      onProgress({
        state: 'downloading',
        transferred: info.transferred,
        total: info.total,
        bytesPerSecond: info.bytesPerSecond,
      });
    updater.on('download-progress', progress);
    try {
      // electron-updater streams the file through SHA-512 and rejects a mismatch itself.
      await updater.downloadUpdate();
    } catch (error) {
      this.log('update download failed', error);
      throw failed(`Downloading or verifying version ${version} failed; nothing was installed.`);
    } finally {
      updater.off('download-progress', progress);
    }
    onProgress({ state: 'verifying', transferred: 1, total: 1, bytesPerSecond: 0 });
    this.options.logger.info('update downloaded and verified', { version });
    return {
      version,
      launch: async () => {
        await this.options.beforeExit?.();
        // Quits the app (after the response went out) and runs the installer it verified.
        updater.quitAndInstall(false, this.options.runAfterInstall ?? true);
      },
    };
  }

  private log(message: string, error: unknown): void {
    this.options.logger.error(message, { error: messageOf(error) });
  }
}
