import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../../server/http/json-depth.js';

const nested = (depth: number, open = '[', close = ']') =>
  JSON.parse(open.repeat(depth) + close.repeat(depth)) as unknown;

describe('nestsDeeperThan', () => {
  it('accepts values up to the limit and refuses one level more, arrays and objects alike', () => {
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    const objects = JSON.parse(
      '{"a":'.repeat(MAX_JSON_DEPTH + 1) + '1' + '}'.repeat(MAX_JSON_DEPTH + 1),
    ) as unknown;
    expect(nestsDeeperThan(objects)).toBe(true);
    expect(nestsDeeperThan({ listens: [{ track: { info: { tags: ['a'] } } }], n: 1, s: 'x' })).toBe(false);
    expect(nestsDeeperThan('text')).toBe(false);
    expect(nestsDeeperThan(null)).toBe(false);
  });

  it('walks 100,000 levels without overflowing the stack', () => {
    expect(nestsDeeperThan(nested(100_000), 200_000)).toBe(false);
    expect(nestsDeeperThan(nested(100_000))).toBe(true);
  });
});
