import type { CoreInternals } from '../core/core';

/**
 * For the tests alone (this file is left out of electron/tsconfig.json): the storage and the domain
 * objects under the core's services, which the object `createCore` makes holds though `Core`, what
 * the hosts and handlers see, does not name them. Tests look at them on the core; code that is not a
 * test uses `internalsOf` (internals-of.ts).
 */
declare module '../core/core' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Core extends CoreInternals {}
}
