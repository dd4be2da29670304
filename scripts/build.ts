/**
 * `npm run build`: the headless server as plain JavaScript in dist/, run with
 * `node dist/server/main.js` (the `melon` command) without tsx or esbuild.
 *
 * Transpiled file by file, not bundled, as the desktop build does (app/build.ts): the server finds
 * package.json, its assets and the settings page relative to its own files (import.meta.url), so
 * dist/ mirrors the source tree. Type checking is `npm run typecheck`'s job.
 */
import { build } from 'esbuild';
import { chmodSync, copyFileSync, cpSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SETTINGS_PAGE_BUILD, VENDOR_STYLESHEETS, vendorSheetPath } from '../server/http/admin-page.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => join(root, dir, file));
}

for (const dir of ['server', 'renderer']) rmSync(join(dist, dir), { recursive: true, force: true });

await build({
  entryPoints: sources('server'),
  outdir: dist,
  outbase: root,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  bundle: false,
  logLevel: 'warning',
});
// The `melon` command (package.json "bin"); npm also marks it executable when it links it.
chmodSync(join(dist, 'server', 'main.js'), 0o755);

// The settings page, prebuilt: served at /admin without running esbuild (server/http/admin-page.ts).
await build({ ...SETTINGS_PAGE_BUILD, outfile: join(dist, 'renderer', 'app.js'), logLevel: 'warning' });
copyFileSync(join(root, 'renderer', 'index.html'), join(dist, 'renderer', 'index.html'));
cpSync(join(root, 'renderer', 'styles'), join(dist, 'renderer', 'styles'), { recursive: true });
for (const name of Object.keys(VENDOR_STYLESHEETS))
  copyFileSync(vendorSheetPath(name), join(dist, 'renderer', 'styles', name));

cpSync(join(root, 'server', 'assets'), join(dist, 'server', 'assets'), { recursive: true });
// server/config.ts reads the version from ../package.json, which from dist/server is this copy.
mkdirSync(dist, { recursive: true });
copyFileSync(join(root, 'package.json'), join(dist, 'package.json'));
console.log('built dist/server and dist/renderer: node dist/server/main.js');
