import { createHash } from 'node:crypto';
import type { Question } from '../../../shared/schemas/question';

/** A JSON value with every object's keys in order, so that equal content is equal text. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = canonical((value as Record<string, unknown>)[key]);
  return out;
}

/**
 * A stable signature of a request's questions: their names, kinds, instructions and criteria,
 * whatever order the keys were written in (score levels keep theirs: a level is its place). Two
 * requests ask the same questions exactly when their signatures are equal; a capture rule made
 * for a saved question set matches the requests whose signature is the set's.
 */
export function questionSignature(questions: Readonly<Record<string, Question>>): string {
  const text = JSON.stringify(canonical(questions));
  return createHash('sha256').update(text).digest('base64url').slice(0, 32);
}
