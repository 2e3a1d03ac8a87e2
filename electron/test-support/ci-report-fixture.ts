/** A report made by the project's report module from answers a test chooses: for the pure report tests. */
import type { EvalRun } from '../../shared/schemas/evaluation';
import type { Question } from '../../shared/schemas/question';
import { evalReport } from '../core/evaluations/reports/report';
import { ciReport, type CiOptions } from '../core/evaluations/reports/ci-report';

export const QUESTIONS: Record<string, Question> = { late: { type: 'noul', instructions: 'Late?' } };

/** One model's yes/no answers P(true) against the expected answers, as stored results. */
export function noulReport(model: string, points: readonly { p: number; expected: boolean }[]) {
  return evalReport({
    questions: QUESTIONS,
    items: points.map((x, position) => ({ position, expected: { late: x.expected } })),
    variants: [
      {
        key: model,
        results: points.map((x, position) => ({
          position,
          ok: true,
          answers: { late: { type: 'noul', noul: x.p } },
          cost: 0.001,
          input_tokens: 10,
          output_tokens: 1,
          latency_ms: 100 + position,
        })),
      },
    ],
    detail: true,
  });
}

export const RUN: EvalRun = {
  id: 'eval-1',
  name: 'tickets × m',
  dataset_id: 'ds-1',
  set_key: 'q-1',
  variants: [{ name: 'm', model: 'm', label: null, cascade: null }],
  status: 'done',
  concurrency: 1,
  budget_usd: null,
  total: 0,
  done: 0,
  failed: 0,
  retryable: 0,
  spent_usd: 0,
  eta_ms: null,
  in_flight: 0,
  waiting_ms: null,
  created_at: '2026-11-28T00:00:00.000Z',
  finished_at: '2026-11-28T00:01:00.000Z',
  message: null,
  calibrations: null,
  questions: {},
  provider: null,
  baseline_id: null,
  estimate: null,
  expected_usd: null,
  expected_from: 0,
};

export const OPTIONS: CiOptions = { threshold: 0.5, verdictVersion: '0.0.0', gates: [], regression: null, allowInsufficient: false, minItems: 30, on: 'bound' };

export const ciOf = (points: readonly { p: number; expected: boolean }[], options: Partial<CiOptions> = {}) =>
  ciReport({ report: noulReport('m', points), run: RUN, comparison: null, baseline: null, options: { ...OPTIONS, ...options } });
