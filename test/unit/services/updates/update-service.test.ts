import { describe, expect, it } from 'vitest';
import { ManualClock, MINUTE_MS } from '../../../../server/clock.js';
import { createMemoryLogger } from '../../../../server/logger.js';
import {
  UpdateService,
  type Installer,
  type InstallProgress,
  type PreparedUpdate,
  type Release,
} from '../../../../server/services/updates/update-service.js';
import { fakeReleasesPerFile, OWNER, REPO } from '../../../support/fake-release-server.js';
import { rejection } from '../../../support/problem-of.js';

const HOUR_MS = 60 * MINUTE_MS;

const releases = fakeReleasesPerFile();

/** An installer that records what it was asked to do and never touches the disk. */
class RecordingInstaller implements Installer {
  prepared: Release[] = [];
  launched = 0;
  gate: Promise<void> = Promise.resolve();
  fail: Error | null = null;
  async prepare(release: Release, onProgress: (p: InstallProgress) => void): Promise<PreparedUpdate> {
    this.prepared.push(release);
    onProgress({ state: 'downloading', transferred: 50, total: 100, bytesPerSecond: 10 });
    await this.gate;
    if (this.fail) throw this.fail;
    return {
      version: release.version,
      launch: () => {
        this.launched++;
        return Promise.resolve();
      },
    };
  }
}

function service(
  options: {
    currentVersion?: string;
    channel?: 'stable' | 'prerelease';
    installer?: Installer;
    timeoutMs?: number;
    clock?: ManualClock;
    token?: string;
    waitForIdle?: () => Promise<void>;
    schedule?: 'daily' | 'off';
  } = {},
) {
  const logger = createMemoryLogger();
  const installer = options.installer ?? new RecordingInstaller();
  const updates = new UpdateService({
    currentVersion: options.currentVersion ?? '1.2.0',
    source: {
      releasesUrl: releases.server.url,
      repo: `${OWNER}/${REPO}`,
      token: options.token,
      channel: options.channel ?? 'stable',
      // Patience with a loopback server, not a rule under test: a busy machine answers slowly.
      timeoutMs: options.timeoutMs ?? 10_000,
    },
    clock: options.clock ?? new ManualClock(),
    logger,
    installer,
    waitForIdle: options.waitForIdle ?? (() => Promise.resolve()),
    ...(options.schedule ? { schedule: options.schedule } : {}),
  });
  return { updates, logger, installer };
}

describe('check-for-updates', () => {
  it('reports a newer release with its notes', async () => {
    releases.server.releases = [{ tag: 'v1.3.0', body: "## What's new\n- faster scans" }];
    const { updates } = service();
    expect(await updates.check()).toEqual({
      UpdateAvailable: true,
      CurrentVersion: '1.2.0',
      LatestVersion: '1.3.0',
      ReleaseNotes: "## What's new\n- faster scans",
    });
  });

  it('reports no update, and no notes, for the same version', async () => {
    releases.server.releases = [{ tag: 'v1.2.0', body: 'notes' }];
    const result = await service().updates.check();
    expect(result).toEqual({ UpdateAvailable: false, CurrentVersion: '1.2.0', LatestVersion: '1.2.0' });
    expect(result).not.toHaveProperty('ReleaseNotes');
  });

  it('reports no update when the release is older than the running version', async () => {
    releases.server.releases = [{ tag: '1.1.9', body: 'old' }];
    expect(await service().updates.check()).toEqual({
      UpdateAvailable: false,
      CurrentVersion: '1.2.0',
      LatestVersion: '1.1.9',
    });
  });

  it('ignores pre-releases on the stable channel', async () => {
    releases.server.releases = [
      { tag: 'v1.4.0-beta.1', prerelease: true, body: 'beta' },
      { tag: 'v1.3.0', body: 'stable' },
    ];
    const result = await service().updates.check();
    expect(result.LatestVersion).toBe('1.3.0');
    expect(result.ReleaseNotes).toBe('stable');
  });

  it('ignores a pre-release even when the source calls it latest', async () => {
    // A look-alike source that does not filter: the tag alone marks it as a pre-release.
    releases.server.releases = [
      { tag: 'v1.4.0-rc.1', body: 'rc' },
      { tag: 'v1.3.0', body: 'stable' },
    ];
    expect((await service().updates.check()).LatestVersion).toBe('1.3.0');
  });

  it('offers the highest pre-release on the prerelease channel', async () => {
    releases.server.releases = [
      { tag: 'v1.3.0', body: 'stable' },
      { tag: 'v1.4.0-beta.2', prerelease: true, body: 'beta 2' },
      { tag: 'v1.4.0-beta.1', prerelease: true, body: 'beta 1' },
      { tag: 'not-a-version', body: 'skipped' },
      { tag: 'v9.0.0', draft: true },
    ];
    const result = await service({ channel: 'prerelease' }).updates.check();
    expect(result).toMatchObject({
      UpdateAvailable: true,
      LatestVersion: '1.4.0-beta.2',
      ReleaseNotes: 'beta 2',
    });
    expect(releases.server.count(`/repos/${OWNER}/${REPO}/releases?`)).toBe(1);
  });

  it.each([
    ['the source answers 500', 'error500'],
    ['the source does not answer in time', 'hang'],
    ['the source answers garbage', 'garbage'],
    ['the source answers the wrong shape', 'badShape'],
  ] as const)('is 400 update_check_failed when %s', async (_label, mode) => {
    releases.server.releases = [{ tag: 'v1.3.0' }];
    releases.server.mode = mode;
    const error = await rejection(service({ timeoutMs: 200 }).updates.check());
    expect(error.status).toBe(400);
    expect(error.code).toBe('update_check_failed');
  });

  it('is 400 update_check_failed when the source is not reachable', async () => {
    const updates = new UpdateService({
      currentVersion: '1.2.0',
      source: { releasesUrl: 'http://127.0.0.1:1', repo: 'a/b', channel: 'stable', timeoutMs: 500 },
      clock: new ManualClock(),
      logger: createMemoryLogger(),
      installer: new RecordingInstaller(),
      waitForIdle: () => Promise.resolve(),
    });
    expect((await rejection(updates.check())).code).toBe('update_check_failed');
  });

  it('reports no update when the repository has no release (404)', async () => {
    expect(await service().updates.check()).toEqual({
      UpdateAvailable: false,
      CurrentVersion: '1.2.0',
      LatestVersion: '1.2.0',
    });
  });

  it('asks the release source at most once a day however often the household looks', async () => {
    releases.server.releases = [{ tag: 'v1.3.0' }];
    const clock = new ManualClock();
    const { updates } = service({ clock });
    for (let i = 0; i < 20; i++) {
      await updates.check();
      clock.advance(HOUR_MS);
      if (i === 0) releases.server.releases = [{ tag: 'v1.4.0' }, { tag: 'v1.3.0' }];
    }
    expect(releases.server.apiCount()).toBe(1);
    clock.advance(4 * HOUR_MS);
    expect((await updates.check()).LatestVersion).toBe('1.4.0');
    expect(releases.server.apiCount()).toBe(2);
  });

  it('shares one request between concurrent checks', async () => {
    releases.server.releases = [{ tag: 'v1.3.0' }];
    const { updates } = service();
    await Promise.all([updates.check(), updates.check(), updates.check()]);
    expect(releases.server.apiCount()).toBe(1);
  });

  it('keeps a failure for an hour instead of asking and warning on every visit', async () => {
    releases.server.mode = 'error500';
    const clock = new ManualClock();
    const { updates, logger } = service({ clock });
    for (let i = 0; i < 12; i++) {
      const error = await rejection(updates.check());
      expect(error.code).toBe('update_check_failed');
      clock.advance(5 * MINUTE_MS - 1);
    }
    expect(releases.server.apiCount()).toBe(1);
    expect(logger.lines.filter((line) => line.includes('update check failed'))).toHaveLength(1);
    expect(updates.checkInfo().failed).toBe(true);
    releases.server.mode = 'ok';
    releases.server.releases = [{ tag: 'v1.3.0' }];
    clock.advance(12);
    expect((await updates.check()).UpdateAvailable).toBe(true);
    expect(releases.server.apiCount()).toBe(2);
    expect(updates.checkInfo().failed).toBe(false);
  });

  it("lets an Admin's check now ask again, but at most every 10 minutes", async () => {
    releases.server.releases = [{ tag: 'v1.3.0' }];
    const clock = new ManualClock();
    const { updates } = service({ clock });
    await updates.check({ mayAsk: true, refresh: true });
    releases.server.releases = [{ tag: 'v1.4.0' }];
    clock.advance(10 * MINUTE_MS - 1);
    for (let i = 0; i < 5; i++) await updates.check({ mayAsk: true, refresh: true });
    expect(releases.server.apiCount()).toBe(1);
    clock.advance(1);
    expect((await updates.check({ mayAsk: true, refresh: true })).LatestVersion).toBe('1.4.0');
    expect(releases.server.apiCount()).toBe(2);
  });

  it('never asks for a member who cannot install, and answers what is known', async () => {
    releases.server.releases = [{ tag: 'v1.3.0' }];
    const clock = new ManualClock();
    const { updates } = service({ clock });
    expect(await updates.check({ mayAsk: false, refresh: true })).toEqual({
      UpdateAvailable: false,
      CurrentVersion: '1.2.0',
      LatestVersion: '1.2.0',
    });
    expect(releases.server.apiCount()).toBe(0);
    await updates.check({ mayAsk: true });
    clock.advance(3 * 24 * HOUR_MS);
    expect((await updates.check({ mayAsk: false })).LatestVersion).toBe('1.3.0');
    expect(releases.server.apiCount()).toBe(1);
  });

  it('with the schedule off, asks only when an Admin asks explicitly', async () => {
    releases.server.releases = [{ tag: 'v1.3.0' }];
    const clock = new ManualClock();
    const { updates } = service({ clock, schedule: 'off' });
    await updates.check();
    clock.advance(3 * 24 * HOUR_MS);
    expect((await updates.check()).UpdateAvailable).toBe(false);
    expect(releases.server.apiCount()).toBe(0);
    expect(updates.checkInfo()).toMatchObject({ schedule: 'off', checkedAt: null });
    expect((await updates.check({ mayAsk: true, refresh: true })).UpdateAvailable).toBe(true);
    expect(releases.server.apiCount()).toBe(1);
    expect(updates.checkInfo().checkedAt).toBe(clock.now());
  });

  it('sends a User-Agent and the token, and never logs the token', async () => {
    releases.server.releases = [{ tag: 'v1.3.0' }];
    releases.server.mode = 'error500';
    const { updates, logger } = service({ token: 'ghp_secret123' });
    await rejection(updates.check());
    const request = releases.server.requests[0]!;
    expect(request.headers['user-agent']).toMatch(/^Melon\/1\.2\.0/);
    expect(request.headers.authorization).toBe('Bearer ghp_secret123');
    expect(logger.lines.join('\n')).not.toContain('ghp_secret123');
    expect(logger.lines.length).toBeGreaterThan(0);
  });
});

describe('update-melon (service)', () => {
  it('is 404 no_release when there is no release', async () => {
    const error = await rejection(service().updates.install());
    expect(error.status).toBe(404);
    expect(error.code).toBe('no_release');
  });

  it('is up_to_date when the running version is the latest', async () => {
    releases.server.releases = [{ tag: 'v1.2.0' }];
    const { updates, installer } = service();
    expect(await updates.install()).toEqual({ status: 'up_to_date' });
    expect((installer as RecordingInstaller).prepared).toHaveLength(0);
  });

  it('prepares the release, then launches only after waitForIdle', async () => {
    releases.server.releases = [{ tag: 'v1.3.0' }];
    const order: string[] = [];
    let releaseIdle!: () => void;
    const idle = new Promise<void>((resolve) => (releaseIdle = resolve));
    const installer = new RecordingInstaller();
    const { updates } = service({
      installer,
      waitForIdle: async () => {
        order.push('wait');
        await idle;
        order.push('idle');
      },
    });
    const result = await updates.install();
    expect(result).toMatchObject({ status: 'installing', version: '1.3.0' });
    expect(updates.status()).toMatchObject({ state: 'installing', version: '1.3.0', percent: 100 });
    if (result.status !== 'installing') throw new Error('unreachable');
    const launching = result.launch();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(installer.launched).toBe(0);
    releaseIdle();
    await launching;
    expect(installer.launched).toBe(1);
    expect(order).toEqual(['wait', 'idle']);
  });

  it('answers 409 update_in_progress to a second request while one runs', async () => {
    releases.server.releases = [{ tag: 'v1.3.0' }];
    const installer = new RecordingInstaller();
    let open!: () => void;
    installer.gate = new Promise<void>((resolve) => (open = resolve));
    const { updates } = service({ installer });
    const first = updates.install();
    const second = await rejection(updates.install());
    expect(second.status).toBe(409);
    expect(second.code).toBe('update_in_progress');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(updates.status()).toMatchObject({
      state: 'downloading',
      transferred: 50,
      total: 100,
      percent: 50,
    });
    open();
    expect(await first).toMatchObject({ status: 'installing' });
    // Once handed off to launch, the update still owns the process.
    expect((await rejection(updates.install())).code).toBe('update_in_progress');
    expect(installer.prepared).toHaveLength(1);
  });

  it('turns an installer crash into 400 update_failed and allows a retry', async () => {
    releases.server.releases = [{ tag: 'v1.3.0' }];
    const installer = new RecordingInstaller();
    installer.fail = new Error('disk exploded');
    const { updates } = service({ installer });
    const error = await rejection(updates.install());
    expect(error.status).toBe(400);
    expect(error.code).toBe('update_failed');
    expect(updates.status()).toMatchObject({ state: 'failed' });
    installer.fail = null;
    expect(await updates.install()).toMatchObject({ status: 'installing' });
  });

  it('is 400 update_check_failed when the source fails during an update', async () => {
    releases.server.mode = 'garbage';
    const error = await rejection(service().updates.install());
    expect(error.status).toBe(400);
    expect(error.code).toBe('update_check_failed');
  });
});
