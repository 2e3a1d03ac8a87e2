/**
 * Option tables for node:util's parseArgs, written as lists of names: each command line says which
 * options take a value and which are flags, and parseArgs' types follow from the names.
 */

/** Options that take a value (`--name value`), once. */
export function valued<const K extends string>(...names: K[]): { [P in K]: { type: 'string' } } {
  return Object.fromEntries(names.map((n) => [n, { type: 'string' }])) as { [P in K]: { type: 'string' } };
}

/** Options that take a value and may be given more than once. */
export function repeated<const K extends string>(...names: K[]): { [P in K]: { type: 'string'; multiple: true } } {
  return Object.fromEntries(names.map((n) => [n, { type: 'string', multiple: true }])) as { [P in K]: { type: 'string'; multiple: true } };
}

/** Options that take no value (`--name`). */
export function flags<const K extends string>(...names: K[]): { [P in K]: { type: 'boolean' } } {
  return Object.fromEntries(names.map((n) => [n, { type: 'boolean' }])) as { [P in K]: { type: 'boolean' } };
}

/** `--help`, also `-h`. */
export const HELP = { help: { type: 'boolean', short: 'h' } } as const;
