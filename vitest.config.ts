import { tierConfig } from './vitest.tiers.js';

/** Every test (`npm test`, `npm run check`); `vitest.<tier>.config.ts` runs one tier. */
export default tierConfig('all');
