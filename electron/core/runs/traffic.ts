/**
 * The user's own traffic, as it was measured: per model, how many requests were answered and their
 * mean input and output tokens (every upstream call of a request together), from the inspector's
 * runs and the evaluation runs kept here. What ZDR would cost is priced on it.
 */
import type { RunStore } from './run-store';

export interface TrafficProfile {
  model: string;
  requests: number;
  input_tokens: number;
  output_tokens: number;
}

/** Runs are asked of the runs domain, evaluation results of the evaluations domain. */
export async function trafficProfile(
  runs: Pick<RunStore, 'answeredTokens'>,
  evals: { answeredTokens(): Promise<{ model: string; requests: number; input: number | null; output: number | null }[]> },
): Promise<{ models: TrafficProfile[]; all: TrafficProfile | null }> {
  const fromEvals = await evals.answeredTokens();
  const byModel = new Map<string, { model: string; requests: number; input: number; output: number }>();
  for (const r of [...(await runs.answeredTokens()), ...fromEvals]) {
    const sum = byModel.get(r.model) ?? { model: r.model, requests: 0, input: 0, output: 0 };
    sum.requests += r.requests;
    sum.input += r.input ?? 0;
    sum.output += r.output ?? 0;
    byModel.set(r.model, sum);
  }
  const rows = [...byModel.values()].sort((a, b) => (a.model < b.model ? -1 : a.model > b.model ? 1 : 0));
  const models = rows.map((r) => ({ model: r.model, requests: r.requests, input_tokens: r.input / r.requests, output_tokens: r.output / r.requests }));
  const requests = rows.reduce((n, r) => n + r.requests, 0);
  const all =
    requests === 0
      ? null
      : {
          model: '*',
          requests,
          input_tokens: rows.reduce((n, r) => n + r.input, 0) / requests,
          output_tokens: rows.reduce((n, r) => n + r.output, 0) / requests,
        };
  return { models, all };
}
