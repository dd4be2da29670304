import { describe, expect, it } from 'vitest';
import { KeptAnswers } from '../../../../server/http/subsonic/kept-answers.js';

const kept = (budget: number) => new KeptAnswers<string>(budget, (value) => value.length);

describe('KeptAnswers', () => {
  it('keeps answers within its byte budget, letting the least recently asked go first', () => {
    const answers = kept(10);
    answers.set('a', 'aaaa');
    answers.set('b', 'bbbb');
    expect(answers.get('a')).toBe('aaaa');
    answers.set('c', 'cccc');
    expect(answers.get('b')).toBeUndefined();
    expect(answers.get('a')).toBe('aaaa');
    expect(answers.get('c')).toBe('cccc');
    expect(answers.bytes).toBe(8);
  });

  it('keeps no answer larger than the whole budget, and drops the old one of that key', () => {
    const answers = kept(10);
    answers.set('a', 'aaaa');
    answers.set('a', 'x'.repeat(11));
    expect(answers.get('a')).toBeUndefined();
    expect(answers.bytes).toBe(0);
  });

  it('shows what it keeps without counting it as asked', () => {
    const answers = kept(10);
    answers.set('a', 'aaaa');
    answers.set('b', 'bbbb');
    expect(answers.peek('a')).toBe('aaaa');
    answers.set('c', 'cccc');
    expect(answers.peek('a')).toBeUndefined();
    expect(answers.peek('b')).toBe('bbbb');
  });

  it('counts a replaced answer once, and nothing once cleared', () => {
    const answers = kept(10);
    answers.set('a', 'aaaa');
    answers.set('a', 'aaaaaa');
    expect(answers.bytes).toBe(6);
    answers.set('b', 'bbbb');
    expect(answers.get('a')).toBe('aaaaaa');
    answers.clear();
    expect([answers.get('a'), answers.get('b'), answers.bytes]).toEqual([undefined, undefined, 0]);
  });

  it('counts an answer that grew only when it still fits, pushing nothing out', () => {
    const answers = new KeptAnswers<{ text: string }>(10, (value) => value.text.length);
    const a = { text: 'aaaa' };
    answers.set('a', a);
    answers.set('b', { text: 'bbbb' });
    a.text = 'aaaaaa';
    expect(answers.recount('a')).toBe(true);
    expect(answers.bytes).toBe(10);
    a.text = 'aaaaaaa';
    expect(answers.recount('a')).toBe(false);
    expect(answers.bytes).toBe(10);
    expect([answers.peek('a'), answers.peek('b')]).toEqual([a, { text: 'bbbb' }]);
    expect(answers.recount('c')).toBe(false);
  });
});
