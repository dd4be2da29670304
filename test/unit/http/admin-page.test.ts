import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  AdminPage,
  PAGE_HEADERS,
  STYLESHEETS,
  VENDOR_STYLESHEETS,
  vendorSheetPath,
} from '../../../server/http/admin-page.js';

describe('AdminPage.css', () => {
  it("serves the libraries' sheets, then every style sheet of renderer/styles, as one, in order", async () => {
    const reply = await new AdminPage().css();
    expect(reply.type).toBe('text/css; charset=utf-8');
    expect(reply.headers).toBe(PAGE_HEADERS);
    const body = String(reply.body);
    const sheets = await Promise.all([
      ...Object.keys(VENDOR_STYLESHEETS).map((name) => readFile(vendorSheetPath(name), 'utf8')),
      ...STYLESHEETS.map((name) =>
        readFile(new URL(`../../../renderer/styles/${name}`, import.meta.url), 'utf8'),
      ),
    ]);
    expect(body).toBe(sheets.join('\n'));
    // Tokens first; the narrow-screen overrides last, so they win.
    expect(body.indexOf(':root {')).toBeLessThan(body.indexOf('.topbar {'));
    expect(body.lastIndexOf('@media (max-width: 700px)')).toBeGreaterThan(body.lastIndexOf('/* Users */'));
  });
});
