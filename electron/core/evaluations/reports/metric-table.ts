/**
 * Each metric of a question, and of a model, as one row: its value, the items it stands on (its n),
 * its 95% interval and how that interval was made. A projection of the report's own figures (nothing
 * is computed again), in the uniform shape thresholds and summaries read.
 */
import type { Interval } from '../../../../shared/metrics/binary';
import type { ModelReport, QuestionMetrics } from '../../../../shared/schemas/evaluation';
import { HIGHER_IS_BETTER } from '../../../../shared/metrics/direction';
import { costPerItem } from '../../../../shared/metrics/cost';
import { intervalKind, type IntervalKind } from './intervals';

export interface MetricRow {
  metric: string;
  value: number | null;
  /** the items the metric stands on: answered items with an expected answer; for precision those said yes, for recall those that were true */
  n: number;
  interval: Interval | null;
  /** how the interval is made; null for a measured figure with no interval (cost, latency) */
  method: IntervalKind | null;
  /** which way is better; null for a metric with no better side (base rate) */
  higher_is_better: boolean | null;
}

/** The metrics of each kind of question, in the order the report lists them. */
export const QUESTION_METRICS: Readonly<Record<string, readonly string[]>> = {
  noul: ['accuracy', 'precision', 'recall', 'f1', 'base_rate', 'brier', 'log_loss', 'auroc', 'ece'],
  choice: ['accuracy', 'macro_f1', 'brier', 'log_loss', 'ece'],
  score: ['mae', 'exact', 'qwk'],
  box: ['mean_iou', 'pass_rate'],
};

/** Figures of a model as a whole: measured over its items, without an interval; lower is better. */
export const MODEL_METRICS: readonly string[] = ['cost_per_item', 'latency_p50_ms', 'latency_p95_ms'];

export const higherIsBetter = (metric: string): boolean | null => (MODEL_METRICS.includes(metric) ? false : (HIGHER_IS_BETTER[metric] ?? null));

/** How many items a metric stands on. */
function metricN(q: QuestionMetrics, metric: string): number {
  const counts = q['counts'] as { tp: number; fp: number; fn: number } | undefined;
  if (counts && metric === 'precision') return counts.tp + counts.fp;
  if (counts && metric === 'recall') return counts.tp + counts.fn;
  return q.n;
}

export function questionRows(q: QuestionMetrics): MetricRow[] {
  return (QUESTION_METRICS[q.type] ?? []).map((metric) => {
    const v = q[metric];
    return {
      metric,
      value: typeof v === 'number' && Number.isFinite(v) ? v : null,
      n: metricN(q, metric),
      interval: q.intervals?.[metric] ?? null,
      method: intervalKind(metric),
      higher_is_better: higherIsBetter(metric),
    };
  });
}

export function modelRows(m: ModelReport): MetricRow[] {
  const answered = m.items - m.failed;
  const row = (metric: string, value: number | null, n: number): MetricRow => ({ metric, value, n, interval: null, method: null, higher_is_better: false });
  return [
    row('cost_per_item', costPerItem(m), m.items - m.cost_unknown),
    row('latency_p50_ms', m.latency_ms.p50, answered),
    row('latency_p95_ms', m.latency_ms.p95, answered),
  ];
}
