import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';
import type { Reply } from './endpoint.js';

const RENDERER = new URL('../../renderer/', import.meta.url);

/** esbuild options for the settings-page script, here and in the app build (app/build.ts). */
export const SETTINGS_PAGE_BUILD: BuildOptions = {
  entryPoints: [fileURLToPath(new URL('main.ts', RENDERER))],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  legalComments: 'none',
};

/**
 * The page's style sheets (renderer/styles/), one per concern, served in this order as the one
 * /admin/style.css: later files may override earlier ones.
 */
export const STYLESHEETS = [
  'base.css',
  'layout.css',
  'components.css',
  'invites-artwork-updates.css',
  'views.css',
  'dashboard-charts.css',
  'dashboard-people.css',
  'library.css',
  'history.css',
  'listen.css',
  'player.css',
  'stats.css',
] as const;

/**
 * Style sheets of the libraries the page bundles, served before the page's own (which may override
 * them): by file name in renderer/styles/ of a build, else from the package. The CSP allows no
 * inline <style>, so uPlot's sheet comes this way.
 */
export const VENDOR_STYLESHEETS: Record<string, string> = { 'uplot.css': 'uplot/dist/uPlot.min.css' };

/** Where a library's sheet is when it is not copied into a build. */
export function vendorSheetPath(name: string): string {
  return createRequire(import.meta.url).resolve(VENDOR_STYLESHEETS[name]!);
}

/** Strict headers for the settings page: only our own script, styles and the API. */
export const PAGE_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'self'; img-src 'self' data: blob:; script-src 'self'; style-src 'self'; connect-src 'self'; " +
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-cache',
};

/**
 * The settings page (renderer/), served at /admin for browsers and the desktop window. From source
 * the script is bundled once, on first request, with esbuild; the built app (`npm run build:app`)
 * ships it prebuilt as dist/renderer/app.js next to the page, and never runs esbuild.
 */
export class AdminPage {
  private script: Promise<string> | undefined;

  async html(): Promise<Reply> {
    return this.file('index.html', 'text/html; charset=utf-8');
  }

  async css(): Promise<Reply> {
    const vendor = Object.keys(VENDOR_STYLESHEETS).map((name) =>
      readFile(new URL(`styles/${name}`, RENDERER), 'utf8').catch(() =>
        readFile(vendorSheetPath(name), 'utf8'),
      ),
    );
    const sheets = await Promise.all([
      ...vendor,
      ...STYLESHEETS.map((name) => readFile(new URL(`styles/${name}`, RENDERER), 'utf8')),
    ]);
    return { status: 200, body: sheets.join('\n'), type: 'text/css; charset=utf-8', headers: PAGE_HEADERS };
  }

  async js(): Promise<Reply> {
    this.script ??= this.bundle().catch((error: unknown) => {
      this.script = undefined;
      throw error;
    });
    return {
      status: 200,
      body: await this.script,
      type: 'text/javascript; charset=utf-8',
      headers: PAGE_HEADERS,
    };
  }

  private async file(name: string, type: string): Promise<Reply> {
    return {
      status: 200,
      body: await readFile(new URL(name, RENDERER), 'utf8'),
      type,
      headers: PAGE_HEADERS,
    };
  }

  private async bundle(): Promise<string> {
    // Built (dist/server/http/ beside dist/renderer/app.js): serve the prebuilt bundle. From source
    // there is no renderer/app.js, so a stale dist/ build is never served in place of the source.
    try {
      return await readFile(new URL('app.js', RENDERER), 'utf8');
    } catch {
      // Running from source: bundle it.
    }
    const { build } = await import('esbuild');
    const result = await build({ ...SETTINGS_PAGE_BUILD, write: false });
    return result.outputFiles[0]!.text;
  }
}
