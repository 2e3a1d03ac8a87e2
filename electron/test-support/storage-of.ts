import type { Core } from '../core';
import type { Storage } from '../core/store/ports';

/**
 * The storage under a core, for tests and benches that look at the data itself. No host or handler
 * reaches it: `Core` does not name it (core-storage.d.ts names it for the tests alone), though the
 * object `createCore` makes holds it.
 */
export function storageOf(core: Core): Storage {
  const storage = (core as Core & { storage?: Storage }).storage;
  if (!storage) throw new Error('This core holds no storage of its own');
  return storage;
}
