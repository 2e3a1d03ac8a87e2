/**
 * evaluations/reports/: the figures. Owns the pure metric files (report, metrics, intervals,
 * bootstrap, weighted, compare, cascade-curve, results-export, and the CI gate's ci-report, gates,
 * gate-specs, metric-table, at-threshold, junit, markdown), which import only shared/, each other,
 * errors, calibration/calibration.ts and the types and CSV cell of what they format; and EvalReports
 * (here) with run-comparison.ts, which read a run through results/ and its items through datasets
 * and hand them to the pure files.
 */
import type { CascadeCurve, CascadeFamily } from '../../../../shared/schemas/cascade-curve';
import type { DecisionsRequest } from '../../../../shared/schemas/decisions-request';
import type { EvalReport, RunComparison } from '../../../../shared/schemas/evaluation';
import type { Question } from '../../../../shared/schemas/question';
import { variantKeys } from '../../../../shared/evaluations/variant-keys';
import { GatewayError } from '../../errors';
import type { Datasets } from '../../datasets/datasets';
import type { EvalResults } from '../results/eval-results';
import type { StoredEvalResult } from '../results/storage';
import type { StoredEvalRun } from '../runs/storage';
import { cascadeCurve } from './cascade-curve';
import { evalReport, type ItemLabels, type StoredResult } from './report';
import { compareRuns } from './run-comparison';

/** A stored result as the report reads it. */
export const toStored = (r: StoredEvalResult): StoredResult => ({
  position: r.position,
  ok: r.ok,
  answers: r.answers,
  cost: r.cost,
  input_tokens: r.input_tokens,
  output_tokens: r.output_tokens,
  latency_ms: r.latency_ms,
});

/** A run's report, a cascade between two of its models and its comparison with a baseline: read from its results, worked out by the pure files beside. */
export class EvalReports {
  constructor(private readonly deps: { results: EvalResults; datasets: Datasets }) {}

  /** The report; `detail` as evalReport takes it (the command line's plain report by default). */
  async report(id: string, options: { detail?: boolean } = {}): Promise<EvalReport> {
    const row = await this.deps.results.stored(id);
    const request = row.request as DecisionsRequest;
    const { items, byVariant } = await this.read(row);
    const keys = variantKeys(row.variants);
    return evalReport({
      questions: request.questions as Record<string, Question>,
      items,
      variants: keys.map((key, i) => ({ key, results: byVariant[i]! })),
      detail: options.detail ?? false,
    });
  }

  /**
   * A cascade between two of the run's models, from their stored answers (no request sent): see
   * cascade-curve.ts. `question` names the question the condition reads, else `family` says which
   * questions (every one of its kinds).
   */
  async cascadeCurve(
    id: string,
    options: { first_variant: number; second_variant: number; question?: string | undefined; family?: CascadeFamily | undefined },
  ): Promise<CascadeCurve> {
    const row = await this.deps.results.stored(id);
    const variants = row.variants;
    for (const [name, v] of [
      ['first_variant', options.first_variant],
      ['second_variant', options.second_variant],
    ] as const)
      if (v >= variants.length) throw new GatewayError('bad_request', `${name}: the run has no model at place ${v} (it has ${variants.length})`);
    if (options.first_variant === options.second_variant)
      throw new GatewayError('bad_request', 'second_variant: a cascade goes from one model to another; pick two different models');
    const keys = variantKeys(variants);
    const { items, byVariant } = await this.read(row);
    return cascadeCurve({
      questions: (row.request as DecisionsRequest).questions as Record<string, Question>,
      items,
      first: { model: keys[options.first_variant]!, results: byVariant[options.first_variant]! },
      second: { model: keys[options.second_variant]!, results: byVariant[options.second_variant]! },
      question: options.question,
      family: options.family,
    });
  }

  /** The run against an earlier one over the same dataset (run-comparison.ts). */
  compare(id: string, baselineId: string): Promise<RunComparison> {
    return compareRuns(this.deps, id, baselineId);
  }

  /** The items' expected answers, and each model's stored results. */
  private async read(row: StoredEvalRun): Promise<{ items: ItemLabels[]; byVariant: StoredResult[][] }> {
    const items = (await this.deps.datasets.expectations(row.dataset_id)).map((i) => ({ position: i.position, expected: i.expected as Record<string, never> }));
    const byVariant = row.variants.map(() => [] as StoredResult[]);
    for (const r of await this.deps.results.all(row.id)) byVariant[r.variant]?.push(toStored(r));
    return { items, byVariant };
  }
}
