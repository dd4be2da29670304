import { describe, expect, it } from 'vitest';
import { isSecretKey, redactedUrl } from '../../server/http/request-log.js';
import { ADMIN_USER, useTestServer } from '../support/server.js';

/**
 * The request log must not carry a secret under any spelling of its parameter name that a parser
 * might read as that parameter (issue: `password[]`, `password.x`, `password%20`, `password+` and
 * `password%00` were logged in clear, because only exact names were redacted).
 */
const t = useTestServer();

const SPELLINGS = [
  'password[]',
  'password.x',
  'password%20',
  'password+',
  'password%00',
  '%20Password',
  'user[password]',
  'PASSWORD',
  'pass%77ord',
  'password%',
  'ｐａｓｓｗｏｒｄ',
];

describe('request log redaction', () => {
  it('treats every spelling of a secret parameter as the secret', () => {
    for (const key of SPELLINGS) expect(isSecretKey(key), key).toBe(true);
    for (const key of ['p', 't', 's', 'apiKey', 'APIKEY', 'token', 'access_token', 'code'])
      expect(isSecretKey(key), key).toBe(true);
    for (const key of ['username', 'id', 'device', 'q', 'u', 'c', 'f', 'passwordless_mode_hint'])
      expect(isSecretKey(key), key).toBe(false);
    expect(redactedUrl('/rest/ping', 'u=ann&p=enc:6869&c=DSub&apiKey=k3y')).toBe(
      '/rest/ping?u=ann&p=***&c=DSub&apiKey=***',
    );
  });

  it('never writes the value to the log, whatever the spelling, on any path', async () => {
    const secrets: string[] = [];
    for (const [i, key] of SPELLINGS.entries()) {
      const secret = `Leak-Canary-${i}-x9`;
      secrets.push(secret);
      const raw = key.includes('%') || key.includes('+') || key.includes('[') ? key : encodeURIComponent(key);
      await t.call(`/auth/login?username=${ADMIN_USER}&${raw}=${secret}`);
    }
    // Subsonic's secrets, sent before (and whether or not) that API is there.
    await t.call(
      '/rest/ping.view?u=ann&p=Leak-Canary-p&t=Leak-Canary-t&s=Leak-Canary-s&apiKey=Leak-Canary-k',
    );
    secrets.push('Leak-Canary-p', 'Leak-Canary-t', 'Leak-Canary-s', 'Leak-Canary-k');
    const log = t.logs.join('\n');
    expect(log).toContain(`username=${ADMIN_USER}`);
    for (const secret of secrets) expect(log).not.toContain(secret);
  });
});
