#!/usr/bin/env node
/**
 * The headless entry point (no Electron), for a NAS or a machine without a desktop: `npm start`,
 * `node dist/server/main.js` and the `melon` command. Without arguments it runs the server.
 */
import { runCli } from './cli/main.js';

const code = await runCli(process.argv.slice(2), process.env);
// A running server keeps the process alive; anything else ends here.
if (code !== 0) process.exit(code);
