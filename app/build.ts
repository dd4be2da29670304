/**
 * Builds the desktop app into dist/ (`npm run build:app`), then electron-builder packs dist/: the
 * server, shared and app folders and the settings page as the headless build makes them
 * (scripts/build-dist.ts), plus the preload, bundled to CommonJS because a sandboxed preload cannot
 * be an ES module.
 */
import { build } from 'esbuild';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDist, DIST, ROOT } from '../scripts/build-dist.js';

await buildDist(['app', 'server', 'shared'], [fileURLToPath(import.meta.url)]);
await build({
  entryPoints: [join(ROOT, 'app', 'preload.ts')],
  outfile: join(DIST, 'app', 'preload.cjs'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external: ['electron'],
  logLevel: 'warning',
});
console.log('built dist/app, dist/server, dist/shared and dist/renderer');
