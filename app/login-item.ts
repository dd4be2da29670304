import { app } from 'electron';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Launched at login: start in the tray without opening the window. */
export const HIDDEN_ARG = '--hidden';

export interface LoginItemEnv {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  execPath: string;
  home: string;
}

const defaultEnv = (): LoginItemEnv => ({
  platform: process.platform,
  env: process.env,
  execPath: process.execPath,
  home: homedir(),
});

/**
 * Electron's login-item settings work on Windows and macOS only; on Linux the freedesktop way is a
 * `.desktop` file in ~/.config/autostart. An AppImage must start the AppImage file, not the
 * extracted binary that disappears when it exits.
 */
export function autostartFile(env: LoginItemEnv): string {
  return join(env.env.XDG_CONFIG_HOME ?? join(env.home, '.config'), 'autostart', 'melon.desktop');
}

export function autostartEntry(env: LoginItemEnv): string {
  const exec = env.env.APPIMAGE ?? env.execPath;
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Melon',
    'Comment=Household music-library server',
    `Exec="${exec.replace(/(["\\`$])/g, '\\$1')}" ${HIDDEN_ARG}`,
    'X-GNOME-Autostart-enabled=true',
    'Terminal=false',
    '',
  ].join('\n');
}

/** Whether Melon starts at login. */
export async function getOpenAtLogin(env: LoginItemEnv = defaultEnv()): Promise<boolean> {
  if (env.platform === 'linux') {
    try {
      return (await readFile(autostartFile(env), 'utf8')).includes('[Desktop Entry]');
    } catch {
      return false;
    }
  }
  return app.getLoginItemSettings({ args: [HIDDEN_ARG] }).openAtLogin;
}

export async function setOpenAtLogin(enabled: boolean, env: LoginItemEnv = defaultEnv()): Promise<boolean> {
  if (env.platform === 'linux') {
    const file = autostartFile(env);
    if (enabled) {
      await mkdir(join(file, '..'), { recursive: true });
      await writeFile(file, autostartEntry(env));
    } else {
      await rm(file, { force: true });
    }
  } else {
    app.setLoginItemSettings({ openAtLogin: enabled, openAsHidden: true, args: [HIDDEN_ARG] });
  }
  return getOpenAtLogin(env);
}
