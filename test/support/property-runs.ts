/**
 * How many cases a property test runs: the number it asks for (`npm test`, `npm run check`,
 * `npm run test:slow`), or MELON_PROPERTY_RUNS when set. The quick loop, `npm run test:unit`, sets
 * it to a few cases, so that it stays fast; `MELON_PROPERTY_RUNS=1000 npm run test:unit` searches
 * further than the full suite does. The seeds stay fixed, so a smaller run checks a prefix of the
 * cases of a full one.
 */
export function propertyRuns(full: number): number {
  const wanted = process.env.MELON_PROPERTY_RUNS;
  if (wanted === undefined || wanted === '' || wanted === 'full') return full;
  const runs = Number(wanted);
  if (!Number.isInteger(runs) || runs < 1) {
    throw new Error(`MELON_PROPERTY_RUNS must be a whole number of runs or "full", not ${wanted}`);
  }
  return runs;
}
