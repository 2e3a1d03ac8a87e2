/** What the runs' stores on both backends share: a run's values as they are written. */
import type { StoredRun } from './ports';

const text = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));

/** A run's values in the order of `INSERT INTO decisions (id, created_at, ..., routing)`: content, methods and routing as JSON text. */
export const decisionValues = (r: StoredRun): (string | number | null)[] => [
  r.id,
  r.created_at,
  r.origin,
  r.key_id,
  r.session_id,
  r.user,
  r.model,
  r.provider,
  r.endpoint_id,
  r.status,
  r.latency_ms,
  r.input_tokens,
  r.output_tokens,
  r.cost,
  text(r.methods),
  r.question_count,
  text(r.request),
  text(r.response),
  r.set_id,
  r.label,
  text(r.routing),
];
