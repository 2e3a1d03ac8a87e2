import type { Core } from '../core';
import type { CoreInternals } from '../core/core';
import type { Storage } from '../core/store/ports';

/**
 * The storage and the domain objects under a core's services, for tests and benches that look at
 * them. No host or handler reaches them: `Core` does not name them (core-internals.d.ts names them
 * for the tests alone), though the object `createCore` makes holds them.
 */
export function internalsOf(core: Core): Core & CoreInternals {
  const internals = core as Core & Partial<CoreInternals>;
  if (!internals.storage) throw new Error('This core holds no internals of its own');
  return internals as Core & CoreInternals;
}

/** The storage under a core. */
export const storageOf = (core: Core): Storage => internalsOf(core).storage;
