/**
 * Option tables for node:util's parseArgs, written as lists of names: each command line says which
 * options take a value and which are flags, and parseArgs' types follow from the names.
 */

/** A maker of option entries of one kind, one per name. */
function ofKind<const S>(spec: S) {
  return <const K extends string>(...names: K[]): { [P in K]: S } => Object.fromEntries(names.map((n) => [n, spec])) as { [P in K]: S };
}

/** Options that take a value (`--name value`), once. */
export const valued = ofKind({ type: 'string' });
/** Options that take a value and may be given more than once. */
export const repeated = ofKind({ type: 'string', multiple: true });
/** Options that take no value (`--name`). */
export const flags = ofKind({ type: 'boolean' });
/** `--help`, also `-h`. */
export const HELP = { help: { type: 'boolean', short: 'h' } } as const;
