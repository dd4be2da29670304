import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnServer } from '../support/child-server.js';
import { runCommand, runMelon } from '../support/run-command.js';
import { ADMIN_PASSWORD as TEST_ADMIN_PASSWORD, startTestServer } from '../support/server.js';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'melon-reset-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const ADMIN_PASSWORD = 'first admin password';

async function login(url: string, username: string, password: string): Promise<Response> {
  return fetch(`${url}/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
}

/** Starts the server on the data folder; resolves to it once it listens. */
async function startServer() {
  const server = spawnServer({ MELON_DATA_DIR: dataDir, MELON_LIBRARY: `${dataDir}-music` });
  return { server, url: await server.url };
}

async function stopServer(server: ReturnType<typeof spawnServer>): Promise<void> {
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
}

describe('melon reset-password <username>', () => {
  it('is refused while Melon runs, and changes nothing', async () => {
    const first = spawnServer({
      MELON_DATA_DIR: dataDir,
      MELON_LIBRARY: `${dataDir}-music`,
      MELON_ADMIN_PASSWORD: ADMIN_PASSWORD,
    });
    const url = await first.url;
    expect((await login(url, 'admin', ADMIN_PASSWORD)).status).toBe(200);
    const users = await readFile(join(dataDir, 'users.json'), 'utf8');

    const refused = await runMelon(['reset-password', 'admin'], { MELON_DATA_DIR: dataDir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `Melon is running on ${dataDir} (process ${first.child.pid}). Stop it first`,
    );
    expect(refused.stdout).not.toMatch(/New password/);
    expect(await readFile(join(dataDir, 'users.json'), 'utf8')).toBe(users);
    expect((await login(url, 'admin', ADMIN_PASSWORD)).status).toBe(200);
    await stopServer(first);
  });

  it('run once Melon is stopped, prints a new password and signs the account out', async () => {
    // The accounts are made by a server in this process: the command under test is what runs apart.
    const made = await startTestServer({ dataDir });
    const token = made.adminToken;
    await made.stop(true);

    // Through npm, as the README says; the username is matched ignoring case, like a login.
    const reset = await runCommand('npm', ['run', '--silent', 'melon', '--', 'reset-password', 'ADMIN'], {
      MELON_DATA_DIR: dataDir,
    });
    expect(reset.stderr).not.toMatch(/\n\s+at /);
    expect(reset.code).toBe(0);
    const password = /New password for 'admin': (\S+)/.exec(reset.stdout)?.[1];
    expect(password).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(await readFile(join(dataDir, 'users.json'), 'utf8')).not.toContain(password!);
    await expect(readFile(join(dataDir, 'melon.lock'))).rejects.toThrow(/ENOENT/);

    const { server, url: again } = await startServer();
    expect((await login(again, 'admin', TEST_ADMIN_PASSWORD)).status).toBe(401);
    expect((await login(again, 'admin', password!)).status).toBe(200);
    const old = await fetch(`${again}/auth/check`, { headers: { Authorization: `Bearer ${token}` } });
    expect(old.status).toBe(401);
    await stopServer(server);
  });

  it('refuses an unknown username and changes nothing', async () => {
    await (await startTestServer({ dataDir })).stop(true);
    const users = await readFile(join(dataDir, 'users.json'), 'utf8');

    const result = await runMelon(['reset-password', 'nobody'], { MELON_DATA_DIR: dataDir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`No user named 'nobody' in ${dataDir}. The users are: admin.`);
    expect(result.stdout).toBe('');
    expect(await readFile(join(dataDir, 'users.json'), 'utf8')).toBe(users);
    await expect(readFile(join(dataDir, 'melon.lock'))).rejects.toThrow(/ENOENT/);
  });

  it('refuses a folder without Melon accounts, and a missing username', async () => {
    const empty = await runMelon(['reset-password', 'admin'], { MELON_DATA_DIR: join(dataDir, 'none') });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain(`No Melon accounts in ${join(dataDir, 'none')}. Set MELON_DATA_DIR`);

    const bare = await runMelon(['reset-password'], { MELON_DATA_DIR: dataDir });
    expect(bare.code).toBe(1);
    expect(bare.stderr).toContain('Usage:\n  melon ');
    expect(bare.stderr).toContain('melon reset-password <username>');
  });
});
