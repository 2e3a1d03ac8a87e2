/**
 * The user's own traffic, as it was measured: per model, how many requests were answered, their
 * mean input and output tokens (every upstream call of a request together) and what they cost each,
 * from the inspector's runs and the evaluation runs kept here. What ZDR would cost is priced on it.
 */
import type { RunStore } from './run-store';

export interface TrafficProfile {
  model: string;
  requests: number;
  input_tokens: number;
  output_tokens: number;
  /** USD per answered request, over those whose cost is known; null when none is */
  cost_usd: number | null;
}

interface Answered {
  model: string;
  requests: number;
  input: number | null;
  output: number | null;
  cost: number;
  priced: number;
}

/** Runs are asked of the runs domain, evaluation results of the evaluations domain. */
export async function trafficProfile(
  runs: Pick<RunStore, 'answeredTokens'>,
  evals: { answeredTokens(): Promise<Answered[]> },
): Promise<{ models: TrafficProfile[]; all: TrafficProfile | null }> {
  const fromEvals = await evals.answeredTokens();
  const byModel = new Map<string, { model: string; requests: number; input: number; output: number; cost: number; priced: number }>();
  for (const r of [...(await runs.answeredTokens()), ...fromEvals]) {
    const sum = byModel.get(r.model) ?? { model: r.model, requests: 0, input: 0, output: 0, cost: 0, priced: 0 };
    sum.requests += r.requests;
    sum.input += r.input ?? 0;
    sum.output += r.output ?? 0;
    sum.cost += r.cost;
    sum.priced += r.priced;
    byModel.set(r.model, sum);
  }
  const rows = [...byModel.values()].sort((a, b) => (a.model < b.model ? -1 : a.model > b.model ? 1 : 0));
  const perRequest = (cost: number, priced: number) => (priced > 0 ? cost / priced : null);
  const models = rows.map((r) => ({
    model: r.model,
    requests: r.requests,
    input_tokens: r.input / r.requests,
    output_tokens: r.output / r.requests,
    cost_usd: perRequest(r.cost, r.priced),
  }));
  const requests = rows.reduce((n, r) => n + r.requests, 0);
  const all =
    requests === 0
      ? null
      : {
          model: '*',
          requests,
          input_tokens: rows.reduce((n, r) => n + r.input, 0) / requests,
          output_tokens: rows.reduce((n, r) => n + r.output, 0) / requests,
          cost_usd: perRequest(
            rows.reduce((n, r) => n + r.cost, 0),
            rows.reduce((n, r) => n + r.priced, 0),
          ),
        };
  return { models, all };
}
