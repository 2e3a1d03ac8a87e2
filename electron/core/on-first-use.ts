import { createRequire } from 'node:module';

const requireHere = createRequire(import.meta.url);

/**
 * A CommonJS package loaded when it is first used rather than when the process starts, for code
 * that needs it synchronously (code that can wait uses `await import()`). A server that is never
 * asked for what the package does never holds it: the idle server's memory is what every request
 * needs (docs/BENCHMARKS.md, idle RSS). The caller names the package's type:
 * `onFirstUse<typeof Undici>('undici')` with `import type * as Undici from 'undici'`.
 */
export function onFirstUse<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= requireHere(name) as T);
}
