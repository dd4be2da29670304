import { formatNumber } from './format.js';

/** Plural-aware counts (`1 play`, `2 plays`) through Intl.PluralRules, so other languages can follow. */
const rules = new Intl.PluralRules('en');

export function count(n: number, one: string, other: string): string {
  return `${formatNumber(n)} ${rules.select(n) === 'one' ? one : other}`;
}

export const plays = (n: number) => count(n, 'play', 'plays');
