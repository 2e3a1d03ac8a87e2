/**
 * The user's own traffic, as it was measured: per model, how many requests were answered and their
 * mean input and output tokens (every upstream call of a request together), from the inspector's
 * runs and the evaluation runs kept here. What ZDR would cost is priced on it.
 */
import type { Store } from '../store/sqlite/database';

export interface TrafficProfile {
  model: string;
  requests: number;
  input_tokens: number;
  output_tokens: number;
}

export function trafficProfile(store: Store): { models: TrafficProfile[]; all: TrafficProfile | null } {
  const rows = store.all<{ model: string; requests: number; input: number; output: number }>(
    `SELECT model, COUNT(*) AS requests, SUM(input) AS input, SUM(output) AS output FROM (
       SELECT model, input_tokens AS input, output_tokens AS output FROM decisions WHERE status = 200 AND input_tokens IS NOT NULL AND output_tokens IS NOT NULL
       UNION ALL
       SELECT json_extract(r.variants, '$[' || res.variant || '].model') AS model, res.input_tokens AS input, res.output_tokens AS output
       FROM eval_results res JOIN eval_runs r ON r.id = res.run_id WHERE res.ok = 1
     ) GROUP BY model ORDER BY model`,
  );
  const models = rows.map((r) => ({ model: r.model, requests: r.requests, input_tokens: r.input / r.requests, output_tokens: r.output / r.requests }));
  const requests = rows.reduce((n, r) => n + r.requests, 0);
  const all = requests === 0 ? null : { model: '*', requests, input_tokens: rows.reduce((n, r) => n + r.input, 0) / requests, output_tokens: rows.reduce((n, r) => n + r.output, 0) / requests };
  return { models, all };
}
