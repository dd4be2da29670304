import { delimiter, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_PORT, loadConfig, parseDuration, type Config } from '../../server/config.js';

describe('loadConfig', () => {
  it('uses the contract defaults', () => {
    const config = loadConfig({}, {}, 'linux');
    expect(config).toMatchObject({
      port: DEFAULT_PORT,
      host: '0.0.0.0',
      adminUser: 'admin',
      adminPassword: null,
      tokenTtlSeconds: 7 * 86400,
      releasesUrl: 'https://api.github.com',
      updateChannel: 'stable',
      updateCheck: 'daily',
      installCommand: null,
    });
    expect(config.dataDir).toMatch(/Melon$/);
    expect(config.libraryDirs[0]).toMatch(/Music$/);
  });

  it('reads every MELON_ variable', () => {
    const config = loadConfig({
      MELON_DATA_DIR: '/srv/melon',
      MELON_PORT: '8080',
      MELON_HOST: '127.0.0.1',
      MELON_LIBRARY: ['/music/a', '/music/b'].join(delimiter),
      MELON_ADMIN_USER: 'root',
      MELON_ADMIN_PASSWORD: 'configured-secret',
      MELON_TOKEN_TTL: '12h',
      MELON_RELEASES_URL: 'http://127.0.0.1:9999/',
      MELON_RELEASES_REPO: 'me/melon',
      MELON_UPDATE_CHANNEL: 'prerelease',
      MELON_UPDATE_CHECK: 'off',
      MELON_INSTALL_COMMAND: 'sh install.sh',
    });
    expect(config).toMatchObject({
      dataDir: resolve('/srv/melon'),
      port: 8080,
      host: '127.0.0.1',
      libraryDirs: [resolve('/music/a'), resolve('/music/b')],
      adminUser: 'root',
      adminPassword: 'configured-secret',
      tokenTtlSeconds: 12 * 3600,
      releasesUrl: 'http://127.0.0.1:9999',
      releasesRepo: 'me/melon',
      updateChannel: 'prerelease',
      updateCheck: 'off',
      installCommand: 'sh install.sh',
    });
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ MELON_PORT: '', MELON_ADMIN_PASSWORD: '' }).port).toBe(DEFAULT_PORT);
  });

  it('refuses invalid values naming the setting', () => {
    expect(() => loadConfig({ MELON_PORT: 'http' })).toThrow(ConfigError);
    expect(() => loadConfig({ MELON_PORT: '70000' })).toThrow(/MELON_PORT=70000/);
  });

  const messageOf = (env: NodeJS.ProcessEnv, overrides: Partial<Config> = {}): string => {
    try {
      loadConfig(env, overrides, 'linux');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error('the configuration was accepted');
  };

  // Each invalid value is named by its environment variable, with the allowed values.
  it.each<[string, NodeJS.ProcessEnv, string]>([
    [
      'MELON_PORT',
      { MELON_PORT: 'abc' },
      'MELON_PORT=abc: must be a port number 1–65535 (or 0 for any free port)',
    ],
    ['MELON_PORT', { MELON_PORT: '0x10' }, 'MELON_PORT=0x10: must be a port number'],
    ['MELON_PORT', { MELON_PORT: '65536' }, 'MELON_PORT=65536: must be a port number'],
    ['MELON_HOST', { MELON_HOST: 'my host' }, 'MELON_HOST=my host: must be an IP address or host name'],
    [
      'MELON_LIBRARY',
      { MELON_LIBRARY: delimiter },
      `MELON_LIBRARY=${delimiter}: must name at least one music folder`,
    ],
    [
      'MELON_ADMIN_USER',
      { MELON_ADMIN_USER: 'x'.repeat(65) },
      `MELON_ADMIN_USER=${'x'.repeat(65)}: must be 1–64 characters`,
    ],
    [
      'MELON_ADMIN_USER',
      { MELON_ADMIN_USER: ' bob' },
      'MELON_ADMIN_USER= bob: must be 1–64 characters, without surrounding spaces',
    ],
    [
      'MELON_TOKEN_TTL',
      { MELON_TOKEN_TTL: 'forever' },
      'MELON_TOKEN_TTL=forever: must be a duration like 7d, 12h, 30m, 45s',
    ],
    [
      'MELON_RELEASES_URL',
      { MELON_RELEASES_URL: 'ftp://example.com' },
      'MELON_RELEASES_URL=ftp://example.com: must be an http:// or https:// URL',
    ],
    [
      'MELON_RELEASES_URL',
      { MELON_RELEASES_URL: 'not a url' },
      'MELON_RELEASES_URL=not a url: must be an http:// or https:// URL',
    ],
    [
      'MELON_RELEASES_REPO',
      { MELON_RELEASES_REPO: 'no-slash' },
      'MELON_RELEASES_REPO=no-slash: must look like owner/repo',
    ],
    [
      'MELON_UPDATE_CHANNEL',
      { MELON_UPDATE_CHANNEL: 'nightly' },
      'MELON_UPDATE_CHANNEL=nightly: must be stable or prerelease',
    ],
    [
      'MELON_UPDATE_CHECK',
      { MELON_UPDATE_CHECK: 'hourly' },
      'MELON_UPDATE_CHECK=hourly: must be daily or off',
    ],
    [
      'MELON_RESCAN_MINUTES',
      { MELON_RESCAN_MINUTES: '0' },
      'MELON_RESCAN_MINUTES=0: must be a whole number of minutes, 1–1440',
    ],
    [
      'MELON_ALLOWED_HOSTS',
      { MELON_ALLOWED_HOSTS: 'nas.lan,http://evil' },
      'MELON_ALLOWED_HOSTS=nas.lan,http://evil: must be host names separated by commas, e.g. nas.lan,music.home.arpa',
    ],
  ])('%s: %j', (_name, env, expected) => {
    const message = messageOf(env);
    expect(message).toContain(expected);
    for (const line of message.split('\n').slice(1)) expect(line).toMatch(/^ {2}MELON_[A-Z_]+[=:]/);
  });

  it('never repeats a secret in its message', () => {
    const password = messageOf({ MELON_ADMIN_PASSWORD: 'short' });
    expect(password).toContain('MELON_ADMIN_PASSWORD: must have 8–256 characters');
    expect(password).not.toContain('short');
    const token = messageOf({}, { githubToken: '' });
    expect(token).toBe('Invalid configuration:\n  GITHUB_TOKEN: must be a token');
  });

  // Values the environment cannot make invalid (an empty variable counts as unset) may still come
  // from the desktop app's overrides; they are named by their variable too.
  it.each<[string, Partial<Config>, string]>([
    ['MELON_DATA_DIR', { dataDir: '' }, 'MELON_DATA_DIR=: must be a folder path'],
    ['MELON_INSTALL_COMMAND', { installCommand: '' }, 'MELON_INSTALL_COMMAND=: must be a command'],
    ['MELON_PORT', { port: 1.5 }, 'MELON_PORT=1.5: must be a port number'],
  ])('%s from an override: %j', (_name, overrides, expected) => {
    expect(messageOf({}, overrides)).toContain(expected);
  });

  it('accepts an empty library only from the overrides (tests and benchmarks)', () => {
    expect(loadConfig({}, { libraryDirs: [] }, 'linux').libraryDirs).toEqual([]);
    expect(messageOf({ MELON_LIBRARY: ` ${delimiter} ` })).toContain('MELON_LIBRARY=');
  });

  it('lists every invalid setting, one per line', () => {
    expect(messageOf({ MELON_PORT: 'abc', MELON_UPDATE_CHANNEL: 'nightly' })).toBe(
      'Invalid configuration:\n' +
        '  MELON_PORT=abc: must be a port number 1–65535 (or 0 for any free port)\n' +
        '  MELON_UPDATE_CHANNEL=nightly: must be stable or prerelease',
    );
  });

  it('reads MELON_ALLOWED_HOSTS as a comma-separated list of names', () => {
    expect(loadConfig({ MELON_ALLOWED_HOSTS: ' nas.lan , Music.Home.Arpa.,' }).allowedHosts).toEqual([
      'nas.lan',
      'Music.Home.Arpa',
    ]);
    expect(loadConfig({}).allowedHosts).toEqual([]);
  });

  it('parses durations', () => {
    expect(parseDuration('7d')).toBe(604800);
    expect(parseDuration('30m')).toBe(1800);
    expect(parseDuration('45')).toBe(45);
    expect(parseDuration('0')).toBeNull();
    expect(parseDuration('1w')).toBeNull();
  });
});
