/** What the question-sets' stores on both backends share: a set's values as written (the request as JSON text). */
import type { StoredQuestionSet } from './ports';

/** A set's values in the order of `INSERT INTO question_sets (id, name, request, created_at, updated_at, deleted_at, sample)`, but the sample flag, which each backend keeps its own way. */
export const questionSetValues = (s: StoredQuestionSet): [string, string, string, string, string, string | null] => [
  s.id,
  s.name,
  JSON.stringify(s.request),
  s.created_at,
  s.updated_at,
  s.deleted_at,
];
