import type { StoredEvalResult } from './storage';

/** A stored result as the screens and exports show it: its model named as the run names it. */
export function resultView(r: StoredEvalResult, keys: readonly string[]) {
  return {
    model: keys[r.variant] ?? String(r.variant),
    variant: r.variant,
    ok: r.ok,
    answers: r.answers,
    raw_answers: r.raw_answers,
    methods: r.methods,
    attempts: r.attempts,
    provider: r.provider,
    usage: { input_tokens: r.input_tokens, output_tokens: r.output_tokens, cost: r.cost },
    latency_ms: r.latency_ms,
    error: r.error,
  };
}

export type ResultView = ReturnType<typeof resultView>;
