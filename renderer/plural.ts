/** Plural-aware counts (`1 play`, `2 plays`) through Intl.PluralRules, so other languages can follow. */
const rules = new Intl.PluralRules('en');
const numbers = new Intl.NumberFormat('en');

export function count(n: number, one: string, other: string): string {
  return `${numbers.format(n)} ${rules.select(n) === 'one' ? one : other}`;
}

export const plays = (n: number) => count(n, 'play', 'plays');
