import { describe, expect, it } from 'vitest';
import { NameIndex } from '../../../../server/services/playback/search-index.js';

const names = [
  'Blue Moon',
  'Beyoncé',
  'Deep Blue Sea',
  'Bluest Eyes',
  'Straße',
  'Once in a Blue Moon',
  'True Blue',
  'moonblue',
];
const nameOf = (name: string) => name;

describe('NameIndex', () => {
  it('finds names that start with the query first, then a later word, then inside a word', () => {
    const index = NameIndex.of(names, nameOf);
    expect(index.search('blue', 10)).toEqual([
      'Blue Moon',
      'Bluest Eyes',
      'Deep Blue Sea',
      'Once in a Blue Moon',
      'True Blue',
      'moonblue',
    ]);
    expect(index.search('blue moon', 10)).toEqual(['Blue Moon', 'Once in a Blue Moon']);
    expect(index.search('BEYONCE', 10)).toEqual(['Beyoncé']);
    expect(index.search('strasse', 10)).toEqual(['Straße']);
    expect(index.search('blue', 2)).toEqual(['Blue Moon', 'Bluest Eyes']);
    expect(index.search('?!', 10)).toEqual([]);
  });

  it('made in steps, yields between them and finds what one made at once finds', () => {
    const many = Array.from({ length: 1_000 }, (_, i) => `${names[i % names.length]} ${i}`);
    const steps = NameIndex.making(many, nameOf, 100);
    let yields = 0;
    let step = steps.next();
    while (!step.done) {
      yields += 1;
      step = steps.next();
    }
    expect(yields).toBe(10);
    const atOnce = NameIndex.of(many, nameOf);
    for (const query of ['blue', 'moon 1', 'beyonce', 'sea 99', '7'])
      expect(step.value.search(query, 50)).toEqual(atOnce.search(query, 50));
  });
});
