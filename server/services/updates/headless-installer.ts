import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { badRequest, messageOf } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { downloadFile, fetchText } from './download.js';
import { installerExtension, manifestName, parseManifest, pickFile } from './manifest.js';
import type { Release } from './release-source.js';
import type { Installer, InstallProgress, PreparedUpdate } from './update-service.js';

export interface HeadlessInstallerOptions {
  /** Where installers are downloaded to; created when missing. */
  downloadDir: string;
  /** `MELON_INSTALL_COMMAND`: run as `COMMAND <downloaded file>`; the platform default when unset. */
  installCommand?: string | undefined;
  /** Flushes and closes the store; runs before the installer starts. */
  beforeExit: () => Promise<void>;
  exit?: ((code: number) => void) | undefined;
  logger: Logger;
  platform?: NodeJS.Platform;
  arch?: string;
  /** Manifest fetch timeout; 10 s by default. */
  timeoutMs?: number;
  /** A download that delivers no byte for this long is abandoned; 60 s by default. */
  stallTimeoutMs?: number;
  userAgent?: string;
}

const failed = (detail: string) => badRequest('update_failed', detail);

/**
 * Splits a command line into program and arguments the way a user writes it in an environment
 * variable: whitespace separates, single or double quotes group, a backslash escapes the next
 * character outside single quotes. No shell ever sees it, so `;`, `$()` and globs are literal.
 */
export function parseCommand(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < command.length; i++) {
    const ch = command[i]!;
    if (quote) {
      if (ch === quote) quote = null;
      else if (ch === '\\' && quote === '"' && i + 1 < command.length) word += command[++i];
      else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (ch === '\\' && i + 1 < command.length && process.platform !== 'win32') {
      word += command[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (quote) throw new Error('MELON_INSTALL_COMMAND has an unclosed quote');
  if (inWord) words.push(word);
  return words;
}

/**
 * The headless (`npm start`) installer: downloads the platform's installer named by the release's
 * electron-builder manifest, checks its SHA-512 and size, and starts it detached before exiting.
 */
export class HeadlessInstaller implements Installer {
  private readonly platform: NodeJS.Platform;
  private readonly arch: string;

  constructor(private readonly options: HeadlessInstallerOptions) {
    this.platform = options.platform ?? process.platform;
    this.arch = options.arch ?? process.arch;
    // Refuse a broken command at start-up rather than after a download.
    if (options.installCommand !== undefined && parseCommand(options.installCommand).length === 0) {
      throw new Error('MELON_INSTALL_COMMAND is empty');
    }
  }

  async prepare(release: Release, onProgress: (progress: InstallProgress) => void): Promise<PreparedUpdate> {
    const userAgent = this.options.userAgent ?? 'Melon-updater';
    const manifestAssetName = manifestName(this.platform, this.arch);
    if (!manifestAssetName) throw failed(`Updates are not published for ${this.platform}.`);
    const manifestAsset = release.assets.find((asset) => asset.name === manifestAssetName);
    if (!manifestAsset) {
      throw failed(`Release ${release.version} has no ${manifestAssetName} for this platform.`);
    }

    let manifestText: string;
    try {
      manifestText = await fetchText(manifestAsset.url, userAgent, this.options.timeoutMs ?? 10_000);
    } catch (error) {
      this.logFailure('manifest download failed', error);
      throw failed(`Could not download ${manifestAssetName}.`);
    }
    let file;
    try {
      const manifest = await parseManifest(manifestText);
      if (manifest.version !== release.version) {
        throw new Error(`the manifest is for ${manifest.version}, the release is ${release.version}`);
      }
      file = pickFile(manifest, installerExtension(this.platform));
      if (!file) throw new Error('the manifest names no installer file for this platform');
    } catch (error) {
      this.logFailure('manifest rejected', error);
      throw failed(`${manifestAssetName} of release ${release.version} is not usable.`);
    }

    // Prefer the release's own asset of that name; otherwise resolve the manifest's relative URL
    // against the manifest's location, as electron-updater does.
    const asset = release.assets.find((candidate) => candidate.name === file.name);
    let url: URL;
    try {
      url = new URL(asset?.url ?? encodeURIComponent(file.name), manifestAsset.url);
    } catch {
      throw failed(`The download address of ${file.name} is invalid.`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw failed(`The download address of ${file.name} is not http(s).`);
    }

    await mkdir(this.options.downloadDir, { recursive: true });
    const destination = join(this.options.downloadDir, file.name);
    const partial = `${destination}.part`;
    const expectedSize = file.size;
    let result;
    try {
      result = await downloadFile({
        url: url.href,
        destination: partial,
        expectedSize,
        userAgent,
        stallTimeoutMs: this.options.stallTimeoutMs ?? 60_000,
        onProgress: (progress) => onProgress({ state: 'downloading', ...progress }),
      });
    } catch (error) {
      this.logFailure('download failed', error);
      throw failed(`Downloading ${file.name} failed.`);
    }
    onProgress({
      state: 'verifying',
      transferred: result.size,
      total: expectedSize ?? result.size,
      bytesPerSecond: 0,
    });
    if ((expectedSize !== null && result.size !== expectedSize) || result.sha512 !== file.sha512) {
      await rm(partial, { force: true });
      const what = expectedSize !== null && result.size !== expectedSize ? 'size' : 'SHA-512 checksum';
      this.options.logger.error('update rejected', { file: file.name, reason: `${what} mismatch` });
      throw failed(`The downloaded ${file.name} does not match its ${what}; nothing was installed.`);
    }
    // Only a verified file ever carries the installer's name.
    await rm(destination, { force: true });
    await rename(partial, destination);
    this.options.logger.info('update downloaded and verified', { version: release.version, file: file.name });
    return { version: release.version, launch: () => this.launch(destination) };
  }

  private async launch(file: string): Promise<void> {
    const [program, ...args] = await this.commandFor(file);
    // The store is closed first: the installer may stop or replace this process at any moment.
    await this.options.beforeExit();
    const child = spawn(program!, args, { detached: true, stdio: 'ignore', windowsHide: false });
    try {
      await Promise.race([
        once(child, 'spawn'),
        once(child, 'error').then(([error]) => Promise.reject(error as Error)),
      ]);
    } catch (error) {
      this.logFailure('installer did not start', error);
      // The store is already closed, so this process cannot go on serving; a supervisor restarts it.
      this.exit(1);
      return;
    }
    child.unref();
    this.options.logger.info('installer started; exiting', { program: program, file });
    this.exit(0);
  }

  private async commandFor(file: string): Promise<string[]> {
    if (this.options.installCommand !== undefined)
      return [...parseCommand(this.options.installCommand), file];
    switch (this.platform) {
      case 'linux':
        // A downloaded AppImage is not executable until told so.
        await chmod(file, 0o755);
        return [file];
      case 'win32':
        return [file];
      case 'darwin':
        return ['open', file];
      default:
        throw new Error(`no default installer for ${this.platform}; set MELON_INSTALL_COMMAND`);
    }
  }

  private exit(code: number): void {
    (this.options.exit ?? ((c: number) => process.exit(c)))(code);
  }

  private logFailure(message: string, error: unknown): void {
    this.options.logger.error(message, { error: messageOf(error) });
  }
}
