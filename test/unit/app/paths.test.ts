import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { appFiles, appRoot, sessionDataDir } from '../../../app/paths.js';
import { loadConfig } from '../../../server/config.js';

describe('sessionDataDir', () => {
  it("keeps Chromium's files in a subfolder of the per-user folder", () => {
    expect(sessionDataDir('/home/ann/.config/Melon')).toBe(join('/home/ann/.config/Melon', 'Chromium'));
  });
});

describe('desktop data folder', () => {
  it("is npm start's default, which is Electron's userData for productName Melon", () => {
    const config = loadConfig({ XDG_CONFIG_HOME: '/home/ann/.config' }, {}, 'linux');
    expect(config.dataDir).toBe('/home/ann/.config/Melon');
    expect(loadConfig({ MELON_DATA_DIR: '/srv/melon' }, {}, 'linux').dataDir).toBe('/srv/melon');
  });
});

describe('appRoot', () => {
  it('finds the root from app/ and from dist/app/', () => {
    expect(appRoot(pathToFileURL('/repo/app/main.ts').href)).toBe('/repo');
    expect(appRoot(pathToFileURL('/repo/dist/app/main.js').href)).toBe('/repo');
  });
});

describe('appFiles', () => {
  it('points at the CommonJS preload and the platform tray icon', () => {
    const files = appFiles('/r', '/u', 'linux');
    expect(files.preload).toBe(join('/r', 'dist', 'app', 'preload.cjs'));
    expect(files.trayIcon).toBe(join('/r', 'build', 'tray.png'));
    expect(appFiles('/r', '/u', 'darwin').trayIcon).toBe(join('/r', 'build', 'trayTemplate.png'));
    expect(files.windowState).toBe(join('/u', 'window-state.json'));
  });
});
