import { describe, expect, it } from 'vitest';
import { TextColumn } from '../../../server/store/text-column.js';
import { textHash } from '../../../server/store/text-hash.js';

const values = ['0123456789abcdef', '', 'Björk', undefined, 'lone \ud800 surrogate', 'x'.repeat(5000), '🎵'];

describe('TextColumn', () => {
  it('gives back each row as it was put in, absent rows and all, before and after it is trimmed', () => {
    const column = new TextColumn();
    for (const value of values) column.push(value);
    expect(values.map((_, row) => column.at(row))).toEqual(values);
    column.trim();
    column.push('after');
    expect([...values, 'after'].map((_, row) => column.at(row))).toEqual([...values, 'after']);
    expect(column.length).toBe(values.length + 1);
  });

  it('tells whether a row holds a string, in an ASCII column and in one that is not', () => {
    const ascii = new TextColumn();
    for (const id of ['0123456789abcdef', 'fedcba9876543210', 't1']) ascii.push(id);
    expect(ascii.is(0, '0123456789abcdef')).toBe(true);
    expect(ascii.is(1, '0123456789abcdef')).toBe(false);
    expect(ascii.is(2, 't1')).toBe(true);
    expect(ascii.is(2, 't10')).toBe(false);
    expect(ascii.is(2, 't')).toBe(false);
    const wide = new TextColumn();
    for (const value of values) wide.push(value);
    expect(wide.is(2, 'Björk')).toBe(true);
    expect(wide.is(2, 'Bjork')).toBe(false);
    expect(wide.is(3, '')).toBe(false);
  });

  it('hashes each row as its string hashes, in an ASCII column and in one that is not', () => {
    const ascii = new TextColumn();
    const ids = ['0123456789abcdef', '', 't1'];
    for (const id of ids) ascii.push(id);
    expect(ids.map((_, row) => ascii.hash(row))).toEqual(ids.map(textHash));
    const wide = new TextColumn();
    for (const value of values) wide.push(value);
    expect(values.map((_, row) => wide.hash(row))).toEqual(values.map((value) => textHash(value ?? '')));
  });
});
