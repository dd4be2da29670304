import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A full collection, asked of V8 from inside a test: what a structure holds is measured after it,
 * as allocation alone leaves garbage about. The flag exposes `gc` to contexts made after it is set.
 */
export function fullCollector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}
