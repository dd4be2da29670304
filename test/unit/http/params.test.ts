import { describe, expect, it } from 'vitest';
import { mergeParams } from '../../../server/http/params.js';

describe('mergeParams', () => {
  it('takes a parameter named __proto__ as an unknown key, never as the parameters’ parent', () => {
    const query = JSON.parse('{"__proto__": {"id": "smuggled"}, "pos": "1"}') as Record<string, unknown>;
    const merged = mergeParams(query, undefined);
    expect(merged['id']).toBeUndefined();
    expect(merged['pos']).toBe('1');
    expect(Object.getPrototypeOf(merged)).toBeNull();
  });

  it('keeps the first value of a repeated query key, lets the body win and drops empty values', () => {
    expect(mergeParams({ id: ['a', 'b'], device: '' }, { pos: 2 })).toEqual(
      Object.assign(Object.create(null), { id: 'a', pos: 2 }),
    );
    expect(mergeParams({ id: 'query' }, { id: 'body' })['id']).toBe('body');
  });
});
