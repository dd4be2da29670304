import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { allowPermission, PAGE_PERMISSIONS } from '../../app/permissions.js';
import { navigationTarget } from '../../app/window-state.js';

/**
 * Script in the server's origin and what the page may do, in the desktop app (its plain modules and its build configuration; the
 * Electron binary itself cannot run here): the settings window treats no `blob:` URL as one of the
 * server's pages, grants the page no permission, and the packed binary has its fuses flipped.
 */
const SERVER = 'http://127.0.0.1:14524';

describe('the settings window', () => {
  it('does not take a blob: URL of the server for one of its pages', () => {
    // A blob made from an API response (an image, a "picture" that is HTML) has the server's origin.
    expect(new URL(`blob:${SERVER}/6f1c0d6e-0000-4000-8000-000000000000`).origin).toBe(SERVER);
    expect(navigationTarget(`blob:${SERVER}/6f1c0d6e-0000-4000-8000-000000000000`, SERVER)).toBe('block');
    expect(navigationTarget(`data:text/html,<script>alert(1)</script>`, SERVER)).toBe('block');
    expect(navigationTarget(`${SERVER}/admin#stats`, SERVER)).toBe('inside');
  });

  it('grants the page no permission, from the server or anywhere else', () => {
    expect([...PAGE_PERMISSIONS]).toEqual([]);
    const permissions = [
      'clipboard-read',
      'clipboard-sanitized-write',
      'display-capture',
      'fullscreen',
      'geolocation',
      'hid',
      'media',
      'midi',
      'notifications',
      'openExternal',
      'pointerLock',
      'serial',
      'usb',
      'fileSystem',
      'unknown',
    ];
    for (const permission of permissions) {
      for (const url of [`${SERVER}/admin`, SERVER, 'https://evil.example/', `blob:${SERVER}/x`, 'not a url'])
        expect(allowPermission(permission, url, SERVER), `${permission} ${url}`).toBe(false);
      expect(allowPermission(permission, `${SERVER}/admin`, null)).toBe(false);
    }
  });
});

describe('the packed app', () => {
  it('has the Electron fuses that keep it from becoming a Node runtime flipped (electron-builder.yml)', async () => {
    const config = parse(await readFile(new URL('../../electron-builder.yml', import.meta.url), 'utf8')) as {
      electronFuses?: Record<string, boolean>;
    };
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
    // Every key is one electron-builder knows (its schema refuses others).
    const scheme = createRequire(import.meta.url)('app-builder-lib/scheme.json') as {
      definitions: { FuseOptionsV1: { properties: Record<string, unknown> } };
    };
    for (const key of Object.keys(config.electronFuses!))
      expect(scheme.definitions.FuseOptionsV1.properties, key).toHaveProperty(key);
  });
});
