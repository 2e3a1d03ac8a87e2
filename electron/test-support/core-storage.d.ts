import type { Storage } from '../core/store/ports';

/**
 * For the tests alone (this file is left out of electron/tsconfig.json): the core's storage, which
 * the object `createCore` makes holds though `Core`, what the hosts and handlers see, does not name
 * it. Tests look at the data itself through it; code that is not a test uses `storageOf`.
 */
declare module '../core/core' {
  interface Core {
    readonly storage: Storage;
  }
}
