import { describe, expect, it } from 'vitest';
import { redactedUrl } from '../../../server/http/request-log.js';

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
