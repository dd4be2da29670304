/**
 * `npm run build`: the headless server as plain JavaScript in dist/, run with
 * `node dist/server/main.js` (the `melon` command) without tsx or esbuild.
 */
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { buildDist, DIST } from './build-dist.js';

await buildDist(['server', 'shared']);
// The `melon` command (package.json "bin"); npm also marks it executable when it links it.
chmodSync(join(DIST, 'server', 'main.js'), 0o755);
console.log('built dist/server and dist/renderer: node dist/server/main.js');
