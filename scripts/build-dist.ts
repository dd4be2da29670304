/**
 * Transpiles Melon into dist/ for running without tsx or esbuild: the headless server
 * (`npm run build`, scripts/build.ts) and the desktop app (`npm run build:app`, app/build.ts).
 *
 * Files are transpiled one by one, not bundled: the server finds package.json, its assets and the
 * settings page relative to its own files (import.meta.url), so dist/ mirrors the source tree. The
 * settings page is prebuilt, so neither build runs esbuild at run time. Type checking is
 * `npm run typecheck`'s job.
 */
import { build } from 'esbuild';
import { copyFileSync, cpSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  SETTINGS_PAGE_BUILD,
  STYLESHEETS,
  VENDOR_STYLESHEETS,
  vendorSheetPath,
} from '../server/http/admin-page.js';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DIST = join(ROOT, 'dist');

/** The TypeScript sources of a top-level folder, build scripts left out. */
function sources(dir: string, except: readonly string[]): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => join(ROOT, dir, file))
    .filter((file) => !except.includes(file));
}

/** Transpiles TypeScript files one by one into `out`, keeping their place in the source tree. */
export async function transpile(entryPoints: string[], out: string): Promise<void> {
  await build({
    entryPoints,
    outdir: out,
    outbase: ROOT,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    bundle: false,
    logLevel: 'warning',
  });
}

/**
 * Builds `folders` (server and shared always; app for the desktop) and the settings page into dist/,
 * or into `out` (the bench's server process, scripts/server-process.ts): a folder of the project, so
 * that the built files find node_modules.
 */
export async function buildDist(
  folders: readonly string[],
  except: readonly string[] = [],
  out: string = DIST,
): Promise<void> {
  for (const dir of [...folders, 'renderer']) rmSync(join(out, dir), { recursive: true, force: true });
  await transpile(
    folders.flatMap((dir) => sources(dir, except)),
    out,
  );

  // The settings page, prebuilt: served at /admin without running esbuild (server/http/admin-page.ts).
  await build({ ...SETTINGS_PAGE_BUILD, outfile: join(out, 'renderer', 'app.js'), logLevel: 'warning' });
  copyFileSync(join(ROOT, 'renderer', 'index.html'), join(out, 'renderer', 'index.html'));
  mkdirSync(join(out, 'renderer', 'styles'), { recursive: true });
  for (const file of STYLESHEETS)
    copyFileSync(join(ROOT, 'renderer', 'styles', file), join(out, 'renderer', 'styles', file));
  // Libraries' sheets (uPlot's) beside ours: the built app has no node_modules to read them from.
  for (const name of Object.keys(VENDOR_STYLESHEETS))
    copyFileSync(vendorSheetPath(name), join(out, 'renderer', 'styles', name));

  cpSync(join(ROOT, 'server', 'assets'), join(out, 'server', 'assets'), { recursive: true });
  // server/config.ts reads the version from ../package.json, which from dist/server is this copy.
  copyFileSync(join(ROOT, 'package.json'), join(out, 'package.json'));
}
