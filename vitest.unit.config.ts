import { tierConfig } from './vitest.tiers.js';

export default tierConfig('unit');
