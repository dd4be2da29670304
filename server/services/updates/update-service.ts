import semver from 'semver';
import type { Clock } from '../../clock.js';
import type {
  InstallAnswer,
  UpdateCheckAnswer as UpdateCheck,
  UpdateStatus,
} from '../../contract/updates.js';
import { AppError, badRequest, conflict, notFound, messageOf } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { SettingsStore } from '../../domain/ports.js';
import { ReleaseSource, type Release, type ReleaseSourceOptions } from './release-source.js';

export type { Release, ReleaseAsset } from './release-source.js';

/** What an installer reports while it fetches an update. */
export interface InstallProgress {
  state: 'downloading' | 'verifying';
  transferred: number;
  /** Bytes expected; 0 while unknown. */
  total: number;
  bytesPerSecond: number;
}

/** A downloaded and verified update, ready to replace the running app. */
export interface PreparedUpdate {
  version: string;
  /** Flushes the app's state, starts the installer and ends this process. */
  launch(): Promise<void>;
}

/**
 * Downloads and verifies one release, then hands back something that installs it.
 * Headless: `HeadlessInstaller`; desktop: `ElectronUpdaterInstaller` (app/updater.ts).
 * A failed download or a checksum mismatch must reject and leave nothing runnable behind.
 */
export interface Installer {
  prepare(release: Release, onProgress: (progress: InstallProgress) => void): Promise<PreparedUpdate>;
}

/** The answer of `update-melon`, and for an install, what starts it once the answer is sent. */
export type InstallResult =
  | Extract<InstallAnswer, { status: 'up_to_date' }>
  | (Extract<InstallAnswer, { status: 'installing' }> & { launch: () => Promise<void> });

export interface UpdateServiceOptions {
  currentVersion: string;
  /** Options for the GitHub release source, or a ready source (tests share one between services). */
  source: ReleaseSourceOptions | ReleaseSource;
  clock: Clock;
  logger: Logger;
  installer: Installer;
  /** Resolves once no scan or artwork edit is writing; the installer never starts before that. */
  waitForIdle: () => Promise<void>;
  /**
   * MELON_UPDATE_CHECK. `off`: the source is asked only when an Admin asks explicitly ("check now",
   * install), whatever the page's switch says.
   */
  schedule?: UpdateSchedule;
  /** The Admin's switch on the Updates page, kept in the data folder; daily when absent. */
  settings?: SettingsStore;
}

export type UpdateSchedule = 'daily' | 'off';

/** Who is asking, and how: only an Admin (who can install) ever makes the server ask the source. */
export interface CheckRequest {
  mayAsk: boolean;
  /** An explicit "check now": asks again once the last request is ten minutes old. */
  refresh?: boolean;
}

const IDLE: UpdateStatus = {
  state: 'idle',
  percent: 0,
  bytesPerSecond: 0,
  transferred: 0,
  total: 0,
  version: null,
  error: null,
};

/** check-for-updates and update-melon (docs/API.md, Updates). */
export class UpdateService {
  private readonly source: ReleaseSource;
  private readonly currentVersion: string;
  private busy = false;
  private current: UpdateStatus = { ...IDLE };

  constructor(private readonly options: UpdateServiceOptions) {
    this.source =
      options.source instanceof ReleaseSource
        ? options.source
        : new ReleaseSource(
            { userAgent: `Melon/${options.currentVersion}`, ...options.source },
            options.clock,
            options.logger,
          );
    this.currentVersion = semver.valid(options.currentVersion.replace(/^v/i, '')) ?? options.currentVersion;
  }

  async check(request: CheckRequest = { mayAsk: true }): Promise<UpdateCheck> {
    const automatic = this.schedule() === 'daily';
    if (!request.mayAsk || (!automatic && !request.refresh)) {
      // Answer from what is known; a failure or nothing yet reads as "no newer version known".
      const last = this.source.last();
      return this.answer(last?.ok ? last.release : null);
    }
    return this.answer(await this.source.latest({ refresh: request.refresh === true }));
  }

  /** Where the server looks, when it last did, and whether it looks by itself. */
  checkInfo(): {
    source: string;
    checkedAt: number | null;
    schedule: UpdateSchedule;
    locked: boolean;
    failed: boolean;
  } {
    const last = this.source.last();
    return {
      source: this.source.describe(),
      checkedAt: last?.at ?? null,
      schedule: this.schedule(),
      locked: this.locked(),
      failed: last !== null && !last.ok,
    };
  }

  /**
   * The Admin's switch. MELON_UPDATE_CHECK=off is the operator's word and wins: a household whose
   * server must never call out cannot have that undone from the page.
   */
  async setSchedule(schedule: UpdateSchedule): Promise<void> {
    if (this.locked() && schedule === 'daily')
      throw new AppError(
        'update_check_locked',
        'MELON_UPDATE_CHECK=off is set where Melon runs; remove it there to check daily',
      );
    if (!this.options.settings) throw new Error('no settings store');
    await this.options.settings.set({ updateCheck: schedule });
  }

  private locked(): boolean {
    return this.options.schedule === 'off';
  }

  private schedule(): UpdateSchedule {
    if (this.locked()) return 'off';
    return this.options.settings?.get().updateCheck ?? 'daily';
  }

  private answer(release: Release | null): UpdateCheck {
    if (!release) {
      // No release published yet: nothing to update to, and the running version is the newest known.
      return {
        UpdateAvailable: false,
        CurrentVersion: this.currentVersion,
        LatestVersion: this.currentVersion,
      };
    }
    const available = this.isNewer(release.version);
    return {
      UpdateAvailable: available,
      CurrentVersion: this.currentVersion,
      LatestVersion: release.version,
      ...(available ? { ReleaseNotes: release.notes } : {}),
    };
  }

  status(): UpdateStatus {
    return { ...this.current };
  }

  async install(): Promise<InstallResult> {
    // Claimed before the first await, so two requests arriving together cannot both pass.
    if (this.busy) throw conflict('update_in_progress', 'An update is already in progress.');
    this.busy = true;
    let handedOff = false;
    try {
      this.set({ ...IDLE, state: 'checking' });
      // Installing is an explicit Admin action: it may refresh a day-old answer.
      const release = await this.source.latest({ refresh: true });
      if (!release) throw notFound('no_release', 'No release is available from the release source.');
      if (!this.isNewer(release.version)) {
        this.set({ ...IDLE });
        return { status: 'up_to_date' };
      }
      this.set({ ...IDLE, state: 'downloading', version: release.version });
      const startedAt = this.options.clock.now();
      let prepared: PreparedUpdate;
      try {
        prepared = await this.options.installer.prepare(release, (progress) => {
          const elapsed = (this.options.clock.now() - startedAt) / 1000;
          this.set({
            ...this.current,
            state: progress.state,
            transferred: progress.transferred,
            total: progress.total,
            percent: progress.total > 0 ? Math.min(100, (progress.transferred / progress.total) * 100) : 0,
            bytesPerSecond:
              progress.bytesPerSecond > 0
                ? progress.bytesPerSecond
                : elapsed > 0
                  ? progress.transferred / elapsed
                  : 0,
          });
        });
      } catch (error) {
        const failure =
          error instanceof AppError && error.status < 500
            ? error
            : badRequest('update_failed', 'The update could not be downloaded or verified.');
        this.options.logger.error('update failed', {
          version: release.version,
          error: messageOf(error),
        });
        throw failure;
      }
      this.set({ ...this.current, state: 'installing', percent: 100 });
      handedOff = true;
      return { status: 'installing', version: prepared.version, launch: () => this.launch(prepared) };
    } catch (error) {
      if (error instanceof AppError && error.code !== 'no_release') {
        this.set({ ...this.current, state: 'failed', error: error.detail });
      } else if (!(error instanceof AppError)) {
        this.set({ ...this.current, state: 'failed', error: 'The update failed.' });
      } else {
        this.set({ ...IDLE });
      }
      throw error;
    } finally {
      if (!handedOff) this.busy = false;
    }
  }

  /** Runs after the 200 went out: wait for writers, then let the installer replace the app. */
  private async launch(prepared: PreparedUpdate): Promise<void> {
    try {
      await this.options.waitForIdle();
      this.options.logger.info('installing update', { version: prepared.version });
      await prepared.launch();
    } catch (error) {
      this.options.logger.error('could not start the installer', {
        version: prepared.version,
        error: messageOf(error),
      });
      this.set({ ...this.current, state: 'failed', error: 'The installer could not be started.' });
      this.busy = false;
    }
  }

  private isNewer(version: string): boolean {
    const current = semver.valid(this.currentVersion);
    // An unparsable running version (a dev build) is treated as older than any release.
    return current === null || semver.gt(version, current);
  }

  private set(status: UpdateStatus): void {
    this.current = status;
  }
}
