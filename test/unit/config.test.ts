import { delimiter, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_PORT, loadConfig, parseDuration } from '../../server/config.js';

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
      installCommand: 'sh install.sh',
    });
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ MELON_PORT: '', MELON_ADMIN_PASSWORD: '' }).port).toBe(DEFAULT_PORT);
  });

  it('refuses invalid values naming the setting', () => {
    expect(() => loadConfig({ MELON_PORT: 'http' })).toThrow(ConfigError);
    expect(() => loadConfig({ MELON_PORT: '70000' })).toThrow(/port/);
    expect(() => loadConfig({ MELON_TOKEN_TTL: 'forever' })).toThrow(/MELON_TOKEN_TTL/);
    expect(() => loadConfig({ MELON_UPDATE_CHANNEL: 'nightly' })).toThrow(/updateChannel/);
    expect(() => loadConfig({ MELON_ADMIN_PASSWORD: 'short' })).toThrow(/MELON_ADMIN_PASSWORD/);
    expect(() => loadConfig({ MELON_RELEASES_REPO: 'no-slash' })).toThrow(/owner\/repo/);
  });

  it('parses durations', () => {
    expect(parseDuration('7d')).toBe(604800);
    expect(parseDuration('30m')).toBe(1800);
    expect(parseDuration('45')).toBe(45);
    expect(parseDuration('0')).toBeNull();
    expect(parseDuration('1w')).toBeNull();
  });
});
