import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { createServer } from '../../server/create-server.js';
import { createMemoryLogger } from '../../server/logger.js';
import { makeUser, type TestUser } from '../factories/users.js';
import { createInvite } from '../support/invites.js';
import { loginToken, postForm, postJson, useTestServer } from '../support/server.js';

/**
 * Secrets — passwords, tokens, invite codes, the signing key and password hashes — never appear in
 * the server log, and never in an error body or a header. A whole session of sign-ins, failures,
 * password changes and invite exchanges is recorded, then every log line and every response is
 * searched.
 */
const t = useTestServer();
let user: TestUser;
const responses: Array<{ label: string; status: number; text: string; headers: Headers }> = [];

async function record(label: string, pending: Promise<Response>): Promise<Response> {
  const response = await pending;
  responses.push({
    label,
    status: response.status,
    text: await response.clone().text(),
    headers: response.headers,
  });
  return response;
}

const WRONG = 'Wrong-Guess-Pw-7781';
const NEW_PASSWORD = 'Brand-New-Pw-5512';
const TOO_LONG = `Too-Long-Secret-${'z'.repeat(300)}`;
const secrets: Record<string, string> = {};

beforeAll(async () => {
  user = await makeUser(t, { username: 'secret-keeper', password: 'Initial-Pw-9034' });
  secrets.adminPassword = 'correct horse battery staple';
  secrets.userPassword = user.password;
  secrets.wrong = WRONG;
  secrets.newPassword = NEW_PASSWORD;
  secrets.tooLong = TOO_LONG;
  secrets.adminToken = t.adminToken;
  secrets.userToken = user.token;
  secrets.signingKey = (await readFile(join(t.dataDir, 'secret.key'), 'utf8')).trim();

  const call = (label: string, path: string, init?: RequestInit & { token?: string }) =>
    record(label, t.call(path, init));
  // Sign-ins: wrong and right, by GET (password in the URL), form and JSON.
  await call('login GET wrong', `/auth/login?username=${user.username}&password=${WRONG}`);
  await call('login GET right', `/auth/login?username=${user.username}&password=${user.password}`);
  await record('login form wrong', postForm(t, '/auth/login', { username: user.username, password: WRONG }));
  await record('login JSON unknown', postJson(t, '/auth/login', { username: 'nobody', password: WRONG }));
  // Validation failures carrying secrets.
  await record(
    'create too long',
    postJson(t, '/api/users/create', { username: 'long-pw', password: TOO_LONG }, t.adminToken),
  );
  await record(
    'change wrong current',
    postJson(
      t,
      '/api/users/change-password',
      { currentPassword: WRONG, newPassword: NEW_PASSWORD },
      user.token,
    ),
  );
  await call('change in URL', `/api/users/change-password?currentPassword=${WRONG}&newPassword=${TOO_LONG}`, {
    method: 'POST',
    token: user.token,
  });
  // Tokens where they do not belong, and tokens that are refused.
  await call('token in query', `/auth/check?token=${t.adminToken}&access_token=${t.adminToken}`);
  await call('tampered token', '/auth/check', { headers: { Authorization: `Bearer ${t.adminToken}x` } });
  await call('wrong role', '/api/users', { token: user.token });
  // Invite codes: a wrong guess, the right code, a replay.
  const invite = await createInvite(t);
  secrets.inviteCode = invite.code;
  const guess = invite.code === 'ZZZZ' ? 'YYYY' : 'ZZZZ';
  await call('code wrong', `/auth/code-authenticate?code=${guess}`);
  const exchanged = await call('code right', `/auth/code-authenticate?code=${invite.code.toLowerCase()}`);
  secrets.serverToken = ((await exchanged.json()) as { token: string }).token;
  await call('code replay', `/auth/code-authenticate?code=${invite.code}`);
  await record(
    'server token misuse',
    postJson(t, '/api/users/create', { username: 'x', password: 'short' }, secrets.serverToken),
  );
  // The password change that works, and the stale token afterwards.
  await record(
    'change right',
    postJson(
      t,
      '/api/users/change-password',
      { currentPassword: user.password, newPassword: NEW_PASSWORD },
      user.token,
    ),
  );
  await call('stale token', '/auth/check', { token: user.token });
  await call('user list', '/api/users', { token: t.adminToken });
  // The hashes, as stored: they must not leave the data folder either.
  const stored = JSON.parse(await readFile(join(t.dataDir, 'users.json'), 'utf8')) as {
    users: Array<{ passwordHash: { hash: string; salt: string } }>;
  };
  stored.users.forEach((u, i) => {
    secrets[`hash${i}`] = u.passwordHash.hash;
    secrets[`salt${i}`] = u.passwordHash.salt;
  });
});

/** Where a secret may legitimately be sent back: to the caller who asked for it. */
const ALLOWED: Record<string, string[]> = { 'code right': ['serverToken'] };
/** Invite codes are 4 characters: search for them as whole words, in the upper case the server uses. */
const contains = (text: string, name: string, value: string) =>
  name === 'inviteCode' ? new RegExp(`\\b${value}\\b`).test(text) : text.includes(value);

describe('the server log', () => {
  it('has one line per request, with secret parameters redacted', () => {
    const log = t.logs.join('\n');
    expect(log).toContain(`/auth/login?username=${user.username}&password=***`);
    expect(log).toContain('/auth/check?token=***&access_token=***');
    expect(log).toContain('/auth/code-authenticate?code=***');
  });

  it('contains no password, token, invite code, signing key or hash', () => {
    const log = t.logs.join('\n');
    for (const [name, value] of Object.entries(secrets)) expect(contains(log, name, value), name).toBe(false);
  });
});

describe('responses', () => {
  it('never carry a secret in an error body', () => {
    const errors = responses.filter((r) => r.status >= 400);
    expect(errors.length).toBeGreaterThan(10);
    for (const response of errors) {
      for (const [name, value] of Object.entries(secrets)) {
        expect(contains(response.text, name, value), `${response.label} leaks ${name}`).toBe(false);
      }
    }
  });

  it('send passwords, hashes and the signing key nowhere, and tokens only to whoever signed in', () => {
    for (const response of responses) {
      for (const [name, value] of Object.entries(secrets)) {
        if ((ALLOWED[response.label] ?? []).includes(name)) continue;
        expect(contains(response.text, name, value), `${response.label} contains ${name}`).toBe(false);
      }
      expect(response.headers.get('set-cookie'), response.label).toBeNull();
      expect(response.text, response.label).not.toContain(t.dataDir);
      expect(response.text, response.label).not.toMatch(/\n\s+at |node_modules|passwordHash/);
    }
  });
});

describe('the generated first Admin password', () => {
  it('is neither logged nor stored in clear, and it works', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'melon-first-'));
    const logger = createMemoryLogger();
    const config = loadConfig({}, { dataDir, port: 0, host: '127.0.0.1', libraryDirs: [] });
    const server = await createServer({ config, logger, exit: () => undefined, scanOnStart: false });
    try {
      const password = server.firstAdmin?.generatedPassword;
      expect(password).toMatch(/^[A-Za-z0-9]{20}$/);
      const url = await server.listen();
      await loginToken((path, init) => fetch(url + path, init), config.adminUser, password!);
      await fetch(`${url}/auth/login?username=${config.adminUser}&password=${password}`);
      expect(logger.lines.length).toBeGreaterThan(0);
      expect(logger.lines.join('\n')).not.toContain(password);
      for (const file of ['users.json'])
        expect(await readFile(join(dataDir, file), 'utf8')).not.toContain(password);
    } finally {
      await server.close(500);
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
