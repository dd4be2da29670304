import { describe, expect, it } from 'vitest';
import { acceptsGzip } from '../../../server/http/accept-encoding.js';

describe('Accept-Encoding', () => {
  it('takes gzip as players ask for it', () => {
    for (const header of [
      'gzip',
      'gzip, deflate, br',
      'deflate, gzip;q=0.5',
      'GZIP',
      'x-gzip',
      '*',
      'br, *;q=0.1',
    ])
      expect(acceptsGzip(header), header).toBe(true);
  });

  it('does not when it is left out, refused by name or weighted zero', () => {
    for (const header of [
      null,
      '',
      'identity',
      'br, deflate',
      'gzip;q=0',
      '*;q=0',
      'gzip;q=0, *',
      '*, gzip;q=0',
    ])
      expect(acceptsGzip(header), String(header)).toBe(false);
  });
});
