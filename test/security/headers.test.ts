import { describe, expect, it } from 'vitest';
import { PAGE_HEADERS } from '../../server/http/admin-page.js';
import { send } from '../support/attacker.js';
import { postJson, useTestServer } from '../support/server.js';

/**
 * Response headers: the settings page at /admin is locked down (CSP, no framing, no sniffing, no
 * referrer), and every API response, errors included, is nosniff; tokens and codes are not cached.
 */
const t = useTestServer();

const PAGE = ['/admin', '/admin/style.css', '/admin/app.js'];

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

describe('the settings page', () => {
  it.each(PAGE)('%s carries the strict page headers', async (path) => {
    const response = await t.call(path);
    expect(response.status).toBe(200);
    for (const [name, value] of Object.entries(PAGE_HEADERS))
      expect(response.headers.get(name), name).toBe(value);
  });

  it('has a Content-Security-Policy that allows only its own origin and forbids inline code and framing', () => {
    const csp = directives(PAGE_HEADERS['Content-Security-Policy']!);
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('style-src')).toEqual(["'self'"]);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('form-action')).toEqual(["'self'"]);
    const all = [...csp.values()].flat();
    for (const loose of ["'unsafe-inline'", "'unsafe-eval'", '*', 'http:', 'https:'])
      expect(all).not.toContain(loose);
    expect(PAGE_HEADERS['X-Frame-Options']).toBe('DENY');
    expect(PAGE_HEADERS['X-Content-Type-Options']).toBe('nosniff');
    expect(PAGE_HEADERS['Referrer-Policy']).toBe('no-referrer');
  });

  it('needs nothing the policy forbids: no inline script, style or handler in the HTML', async () => {
    const html = await (await t.call('/admin')).text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i);
    expect(html).not.toMatch(/<style\b/i);
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
    expect(html).not.toMatch(/\sstyle\s*=/i);
  });

  it('serves its files with their real types', async () => {
    expect((await t.call('/admin')).headers.get('content-type')).toMatch(/^text\/html/);
    expect((await t.call('/admin/style.css')).headers.get('content-type')).toMatch(/^text\/css/);
    expect((await t.call('/admin/app.js')).headers.get('content-type')).toMatch(/^text\/javascript/);
  });
});

describe('API responses', () => {
  it('are nosniff, successes and problems alike, and name no server software', async () => {
    const responses = [
      await t.call('/api/health'),
      await t.call('/api/users', { token: t.adminToken }),
      await t.call('/api/art/default', { token: t.adminToken }),
      await t.call('/api/users'), // 401
      await t.call('/api/nothing-here'), // 404
      await t.call('/auth/invite', { method: 'POST' }), // 405
      await postJson(t, '/auth/login', { username: 'admin' }), // 400
    ];
    const headers = responses.map((r) => ({
      label: `${r.status} ${r.url}`,
      get: (name: string) => r.headers.get(name),
    }));
    const refused = await send(t.url, { path: '/api/health', headers: { Origin: 'http://evil.example' } });
    expect(refused.status).toBe(403);
    headers.push({
      label: '403',
      get: (name: string) => (refused.headers[name] as string | undefined) ?? null,
    });
    for (const { label, get } of headers) {
      expect(get('x-content-type-options'), label).toBe('nosniff');
      expect(get('x-powered-by'), label).toBeNull();
      expect(get('server'), label).toBeNull();
    }
  });

  it('that carry tokens or invite codes are not stored by caches', async () => {
    const login = await postJson(t, '/auth/login', {
      username: 'admin',
      password: 'correct horse battery staple',
    });
    expect(login.status).toBe(200);
    expect(login.headers.get('cache-control')).toBe('no-store');
    const invite = await t.call('/auth/invite', { token: t.adminToken });
    expect(invite.headers.get('cache-control')).toBe('no-store');
    const code = ((await invite.json()) as { code: string }).code;
    expect((await t.call(`/auth/code-authenticate?code=${code}`)).headers.get('cache-control')).toBe(
      'no-store',
    );
    expect((await t.call('/auth/invites', { token: t.adminToken })).headers.get('cache-control')).toBe(
      'no-store',
    );
  });
});
