/**
 * Builds the desktop app into dist/ (`npm run build:app`), then electron-builder packs dist/.
 *
 * The server and app are transpiled file by file, not bundled: the server finds package.json,
 * its assets and the settings page relative to its own files (import.meta.url), so dist/ mirrors
 * the source tree. Type checking is `npm run typecheck`'s job. The preload is bundled to CommonJS
 * because a sandboxed preload cannot be an ES module.
 */
import { build } from 'esbuild';
import { copyFileSync, cpSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SETTINGS_PAGE_BUILD, STYLESHEETS } from '../server/http/admin-page.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => join(root, dir, file))
    .filter((file) => file !== fileURLToPath(import.meta.url));
}

async function main(): Promise<void> {
  for (const dir of ['app', 'server', 'renderer', 'shared'])
    rmSync(join(dist, dir), { recursive: true, force: true });

  await build({
    // shared/ is what app/ and renderer/ both use; the page bundles its copy below.
    entryPoints: [...sources('app'), ...sources('server'), ...sources('shared')],
    outdir: dist,
    outbase: root,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    bundle: false,
    logLevel: 'warning',
  });

  await build({
    entryPoints: [join(root, 'app', 'preload.ts')],
    outfile: join(dist, 'app', 'preload.cjs'),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: ['electron'],
    logLevel: 'warning',
  });

  // The settings page, prebuilt so the packaged app never runs esbuild.
  await build({ ...SETTINGS_PAGE_BUILD, outfile: join(dist, 'renderer', 'app.js'), logLevel: 'warning' });
  copyFileSync(join(root, 'renderer', 'index.html'), join(dist, 'renderer', 'index.html'));
  mkdirSync(join(dist, 'renderer', 'styles'), { recursive: true });
  for (const file of STYLESHEETS)
    copyFileSync(join(root, 'renderer', 'styles', file), join(dist, 'renderer', 'styles', file));

  cpSync(join(root, 'server', 'assets'), join(dist, 'server', 'assets'), { recursive: true });
  // server/config.ts reads the version from ../package.json, which from dist/server is this copy.
  mkdirSync(dist, { recursive: true });
  copyFileSync(join(root, 'package.json'), join(dist, 'package.json'));
  console.log('built dist/app, dist/server, dist/shared and dist/renderer');
}

await main();
