import { describe, expect, it } from 'vitest';
import { redactedUrl, requestLog } from '../../../server/http/request-log.js';
import { WARM_UP_HEADER } from '../../../server/http/warm-up.js';
import { createLogger } from '../../../server/logger.js';

describe('redactedUrl', () => {
  it('hides secret parameters however they are spelled', () => {
    expect(redactedUrl('/auth/login', 'username=a&password=hunter2')).toBe(
      '/auth/login?username=a&password=***',
    );
    expect(redactedUrl('/x', 'PASSWORD=hunter2&pass%77ord=hunter2&code=ABCD')).toBe(
      '/x?PASSWORD=***&pass%77ord=***&code=***',
    );
    expect(redactedUrl('/x', 'newPassword=a&currentPassword=b&token=c')).toBe(
      '/x?newPassword=***&currentPassword=***&token=***',
    );
    expect(redactedUrl('/x', 'id=1&device=tv')).toBe('/x?id=1&device=tv');
    expect(redactedUrl('/x', '')).toBe('/x');
  });
});

describe('requestLog and the warm-up', () => {
  const logged = async (headers: Record<string, string>): Promise<number> => {
    const lines: string[] = [];
    const middleware = requestLog(
      createLogger((line) => lines.push(line)),
      'the-secret',
    );
    const ctx = {
      method: 'GET',
      path: '/api/health',
      querystring: '',
      status: 200,
      state: {},
      get: (name: string) => headers[name] ?? '',
    } as unknown as Parameters<typeof middleware>[0];
    await middleware(ctx, () => Promise.resolve());
    return lines.length;
  };

  it("leaves out only the server's own warm-up request, which carries the process's secret", async () => {
    expect(await logged({ [WARM_UP_HEADER]: 'the-secret' })).toBe(0);
  });

  it('logs a client that sends the header with any other value', async () => {
    expect(await logged({ [WARM_UP_HEADER]: 'guess' })).toBe(1);
    expect(await logged({})).toBe(1);
  });
});
