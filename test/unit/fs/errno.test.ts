import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { errnoCode } from '../../../server/fs/errno.js';

describe('errnoCode', () => {
  it('reads the code of a real file-system error', async () => {
    const error: unknown = await readFile('/no/such/melon/file').catch((e: unknown) => e);
    expect(errnoCode(error)).toBe('ENOENT');
  });

  it('reads a string code from any object that carries one', () => {
    expect(errnoCode(Object.assign(new Error('denied'), { code: 'EACCES' }))).toBe('EACCES');
    expect(errnoCode({ code: 'EPERM' })).toBe('EPERM');
  });

  it('is undefined for errors without a string code and for things that are not objects', () => {
    expect(errnoCode(new Error('plain'))).toBeUndefined();
    expect(errnoCode({ code: 404 })).toBeUndefined();
    for (const thrown of [undefined, null, 'ENOENT', 42]) expect(errnoCode(thrown)).toBeUndefined();
  });
});
