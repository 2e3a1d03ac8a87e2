/**
 * Whether a question set can be judged over a dataset, from what is stored: which items carry an
 * expected answer to one of its questions, and when the set last ran on it. Pure.
 */

/** Items whose expected answers name at least one of the questions. */
export function itemsLabelledFor(expectations: readonly { expected: Record<string, unknown> }[], questions: readonly string[]): number {
  let n = 0;
  for (const { expected } of expectations) if (questions.some((q) => Object.hasOwn(expected, q))) n += 1;
  return n;
}

/** When a run of the set (by its key) last started on the dataset, or null when none did. */
export function lastRunOn(runs: readonly { dataset_id: string; set_key: string; created_at: string }[], set: { key: string; dataset: string }): string | null {
  let last: string | null = null;
  for (const r of runs) if (r.set_key === set.key && r.dataset_id === set.dataset && (last === null || r.created_at > last)) last = r.created_at;
  return last;
}
