import { readdir, readFile, stat } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../server/clock.js';
import { createMemoryLogger } from '../../../../server/logger.js';
import { HeadlessInstaller, parseCommand } from '../../../../server/services/updates/headless-installer.js';
import { parseManifest, pickFile, safeFileName } from '../../../../server/services/updates/manifest.js';
import type { UpdateStatus } from '../../../../server/contract/updates.js';
import { UpdateService } from '../../../../server/services/updates/update-service.js';
import {
  defaultBinary,
  fakeReleasesPerFile,
  installerNames,
  OWNER,
  REPO,
  sha512Base64,
} from '../../../support/fake-release-server.js';
import { rejection } from '../../../support/problem-of.js';
import { tempDirPerTest } from '../../../support/temp-dir.js';

const releases = fakeReleasesPerFile();
const temp = tempDirPerTest('melon-update-');

function setup(options: { platform?: NodeJS.Platform; arch?: string; installCommand?: string } = {}) {
  const logger = createMemoryLogger();
  const events: string[] = [];
  const exits: number[] = [];
  const installer = new HeadlessInstaller({
    downloadDir: temp.path('updates'),
    installCommand: options.installCommand,
    beforeExit: () => {
      events.push('beforeExit');
      return Promise.resolve();
    },
    exit: (code) => {
      events.push(`exit ${code}`);
      exits.push(code);
    },
    logger,
    platform: options.platform ?? 'linux',
    arch: options.arch ?? 'x64',
    timeoutMs: 1_000,
    stallTimeoutMs: 1_000,
  });
  const updates = new UpdateService({
    currentVersion: '1.2.0',
    source: {
      releasesUrl: releases.server.url,
      repo: `${OWNER}/${REPO}`,
      channel: 'stable',
      timeoutMs: 1_000,
    },
    clock: new ManualClock(),
    logger,
    installer,
    waitForIdle: () => {
      events.push('idle');
      return Promise.resolve();
    },
  });
  return { installer, updates, events, exits, logger };
}

const downloads = async () => readdir(temp.path('updates')).catch(() => [] as string[]);

describe('headless installer', () => {
  it.each([
    ['linux', 'x64', installerNames('1.3.0').appImage],
    ['linux', 'arm64', installerNames('1.3.0').appImageArm],
    ['win32', 'x64', installerNames('1.3.0').exe],
    ['darwin', 'arm64', installerNames('1.3.0').dmg],
  ] as const)('downloads and verifies the %s/%s installer', async (platform, arch, name) => {
    releases.server.releases = [{ tag: 'v1.3.0' }];
    const { updates } = setup({ platform, arch });
    const result = await updates.install();
    expect(result).toMatchObject({ status: 'installing', version: '1.3.0' });
    const file = await readFile(temp.path('updates', name));
    expect(file.equals(defaultBinary('1.3.0'))).toBe(true);
    expect(await downloads()).toEqual([name]);
    const manifest =
      platform === 'win32'
        ? 'latest.yml'
        : platform === 'darwin'
          ? 'latest-mac.yml'
          : arch === 'arm64'
            ? 'latest-linux-arm64.yml'
            : 'latest-linux.yml';
    expect(releases.server.count(`/${OWNER}/${REPO}/releases/download/v1.3.0/${manifest}`)).toBe(1);
  });

  it('runs the install command with the downloaded file after flushing, then exits 0', async () => {
    releases.server.releases = [{ tag: 'v1.3.0' }];
    const out = temp.path('argv.json');
    const script = temp.path('record.mjs');
    await import('node:fs/promises').then((fs) =>
      fs.writeFile(
        script,
        `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(out)}, JSON.stringify(process.argv.slice(2)));\n`,
      ),
    );
    const { updates, events, exits } = setup({
      installCommand: `"${process.execPath}" ${script.replace(/ /g, '\\ ')} --flag`,
    });
    const result = await updates.install();
    if (result.status !== 'installing') throw new Error('expected installing');
    await result.launch();
    expect(events).toEqual(['idle', 'beforeExit', 'exit 0']);
    expect(exits).toEqual([0]);
    const file = temp.path('updates', installerNames('1.3.0').appImage);
    for (let i = 0; i < 50; i++) {
      if (await stat(out).catch(() => null)) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(JSON.parse(await readFile(out, 'utf8'))).toEqual(['--flag', file]);
  });

  it('exits 1 and says so when the installer cannot be started', async () => {
    releases.server.releases = [{ tag: 'v1.3.0' }];
    const { updates, exits, logger } = setup({ installCommand: temp.path('does-not-exist') });
    const result = await updates.install();
    if (result.status !== 'installing') throw new Error('expected installing');
    await result.launch();
    expect(exits).toEqual([1]);
    expect(logger.lines.join('\n')).toMatch(/installer did not start/);
  });

  it('refuses a checksum mismatch: 400 update_failed, the download removed, nothing run', async () => {
    releases.server.releases = [{ tag: 'v1.3.0', wrongSha: true }];
    const { updates, events } = setup();
    const error = await rejection(updates.install());
    expect(error.status).toBe(400);
    expect(error.code).toBe('update_failed');
    expect(error.detail).toMatch(/SHA-512/);
    expect(await downloads()).toEqual([]);
    expect(events).toEqual([]);
    expect(updates.status()).toMatchObject({ state: 'failed' });
  });

  it('refuses a size mismatch', async () => {
    releases.server.releases = [{ tag: 'v1.3.0', wrongSize: true }];
    const { updates, events } = setup();
    const error = await rejection(updates.install());
    expect(error.code).toBe('update_failed');
    expect(await downloads()).toEqual([]);
    expect(events).toEqual([]);
  });

  it('is update_failed when the download fails or the manifest is missing', async () => {
    releases.server.releases = [{ tag: 'v1.3.0' }];
    releases.server.downloadStatus = 500;
    const { updates } = setup();
    expect((await rejection(updates.install())).code).toBe('update_failed');
    expect(await downloads()).toEqual([]);

    releases.server.reset();
    releases.server.releases = [{ tag: 'v1.3.0', noManifests: true }];
    const other = setup();
    const error = await rejection(other.updates.install());
    expect(error.code).toBe('update_failed');
    expect(error.detail).toMatch(/latest-linux\.yml/);
  });

  it('reports download progress through status()', async () => {
    releases.server.releases = [{ tag: 'v1.3.0' }];
    releases.server.slowDownload = { chunkSize: 8 * 1024, delayMs: 120 };
    const { updates } = setup();
    const seen: UpdateStatus[] = [];
    const poll = setInterval(() => seen.push(updates.status()), 40);
    try {
      await updates.install();
    } finally {
      clearInterval(poll);
    }
    const downloading = seen.filter((status) => status.state === 'downloading' && status.transferred > 0);
    expect(downloading.length).toBeGreaterThan(1);
    const middle = downloading.filter((status) => status.percent > 0 && status.percent < 100).at(-1);
    expect(middle).toMatchObject({ total: 64 * 1024, version: '1.3.0' });
    expect(middle!.bytesPerSecond).toBeGreaterThan(0);
    expect(updates.status()).toMatchObject({ state: 'installing', percent: 100 });
  });
});

describe('install command and manifest parsing', () => {
  it('splits a command without a shell', () => {
    expect(parseCommand('/usr/bin/node  /opt/x.mjs')).toEqual(['/usr/bin/node', '/opt/x.mjs']);
    expect(parseCommand(`"/opt/my app/run" 'a b' c\\ d ""`)).toEqual(['/opt/my app/run', 'a b', 'c d', '']);
    expect(parseCommand('sh -c $(rm -rf /); echo')).toEqual(['sh', '-c', '$(rm', '-rf', '/);', 'echo']);
    expect(() => parseCommand('"unclosed')).toThrow(/unclosed quote/);
  });

  it('accepts only bare file names from a manifest', async () => {
    expect(safeFileName('Melon-1.3.0.AppImage')).toBe('Melon-1.3.0.AppImage');
    expect(safeFileName('Melon%201.3.0.exe')).toBe('Melon 1.3.0.exe');
    for (const bad of ['../evil', '/etc/passwd', 'a/b', '..%2Fevil', 'C:\\x.exe', '.hidden', '']) {
      expect(safeFileName(bad)).toBeNull();
    }
    const sha = sha512Base64(Buffer.from('x'));
    const manifest = await parseManifest(
      `version: 1.3.0\nfiles:\n  - url: ../../evil.AppImage\n    sha512: ${sha}\n    size: 1\n`,
    );
    expect(pickFile(manifest, '.AppImage')).toBeNull();
  });

  it('rejects a malformed manifest', async () => {
    await expect(parseManifest('version: [1, 2')).rejects.toThrow(/not YAML/);
    await expect(parseManifest('files:\n  - url: x\n    sha512: nope\n')).rejects.toThrow(/malformed/);
  });
});
