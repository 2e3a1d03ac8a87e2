/**
 * Thresholds and regressions judged on a run's report. By default a threshold is judged on the
 * conservative end of the metric's 95% interval (`--gate-on bound`): `--fail-under` is met when the
 * low end is at or above the limit, `--fail-over` when the high end is at or below it; with
 * `--gate-on point`, on the value itself. A metric standing on fewer items than the minimum, or
 * with no value or no interval to judge, is `insufficient`: neither met nor failed, said as such.
 * A regression is a metric whose paired difference from the baseline is worse with its whole 95%
 * interval on the worse side of 0. Pure.
 */
import type { Interval } from '../../../../shared/metrics/binary';
import type { RunComparison } from '../../../../shared/schemas/evaluation';
import type { GateSpec } from './gate-specs';
import type { MetricRow } from './metric-table';

export type GateStatus = 'pass' | 'fail' | 'insufficient';

export interface GateResult {
  kind: 'fail_under' | 'fail_over' | 'regression';
  /** stable across runs (a CI system matches test cases by it): "late.recall >= 0.8", "late.recall not worse than the baseline" */
  name: string;
  model: string;
  /** null for a figure of the model as a whole (cost, latency) */
  question: string | null;
  metric: string;
  /** the limit; 0 for a regression, whose value is the difference from the baseline */
  limit: number;
  /** what was compared with the limit: the interval's low or high end, or the value itself */
  bound: 'low' | 'high' | 'point';
  value: number | null;
  interval: Interval | null;
  compared: number | null;
  n: number;
  status: GateStatus;
  message: string;
}

export interface GateOptions {
  /** below this many items a metric is insufficient (the report's provisional mark, 30, unless --min-items says) */
  minItems: number;
  on: 'bound' | 'point';
}

export interface ModelRows {
  model: string;
  questions: Record<string, MetricRow[]>;
  model_rows: MetricRow[];
}

/** Four significant digits; a rounding residue (a Wilson end of 2e-17 for 0 of n) reads as 0. */
const fmt = (v: number) => (Math.abs(v) < 1e-12 ? '0' : String(Number(v.toPrecision(4))));
const intervalText = (i: Interval | null, method: string | null) =>
  i ? `95% ${method === 'wilson' ? 'Wilson' : 'bootstrap'} interval [${fmt(i.low)}, ${fmt(i.high)}]` : 'no interval';

function judge(spec: GateSpec, model: string, question: string | null, row: MetricRow, o: GateOptions): GateResult {
  const under = spec.kind === 'fail_under';
  const label = question === null ? row.metric : `${question}.${row.metric}`;
  const usesInterval = o.on === 'bound' && row.method !== null;
  const bound = usesInterval ? (under ? 'low' : 'high') : 'point';
  const base = {
    kind: spec.kind,
    name: `${label} ${under ? '>=' : '<='} ${spec.limit}`,
    model,
    question,
    metric: row.metric,
    limit: spec.limit,
    bound,
    value: row.value,
    interval: row.interval,
    n: row.n,
  } as const;
  const said = `${model} ${label}${row.value === null ? '' : ` = ${fmt(row.value)}`} (${row.method === null ? 'measured' : intervalText(row.interval, row.method)}, n ${row.n})`;
  const insufficient = (why: string): GateResult => ({ ...base, compared: null, status: 'insufficient', message: `${said}: insufficient data: ${why}` });
  if (row.n < o.minItems) return insufficient(`it stands on ${row.n} items, fewer than ${o.minItems}`);
  if (row.value === null) return insufficient(`${row.metric} is undefined on these answers${row.metric === 'precision' ? ' (no item was said yes)' : ''}`);
  if (usesInterval && row.interval === null) return insufficient('no interval could be made');
  // Never less strict than the value itself: a Wilson low end for 0 of n is a rounding residue above 0 (2e-17).
  const compared = bound === 'low' ? Math.min(row.interval!.low, row.value) : bound === 'high' ? Math.max(row.interval!.high, row.value) : row.value;
  const met = under ? compared >= spec.limit : compared <= spec.limit;
  const what = bound === 'point' ? 'the value' : `the interval's ${bound} end ${fmt(compared)}`;
  const verdict = met ? `${what} is ${under ? 'at or above' : 'at or below'} ${spec.limit}` : `${what} is ${under ? 'below' : 'above'} ${spec.limit}`;
  return { ...base, compared, status: met ? 'pass' : 'fail', message: `${said}: ${verdict}` };
}

/** One result per threshold, model and question it applies to, in the order the thresholds were given. */
export function evaluateGates(specs: readonly GateSpec[], models: readonly ModelRows[], o: GateOptions): GateResult[] {
  const out: GateResult[] = [];
  for (const spec of specs) {
    for (const m of models) {
      const modelRow = m.model_rows.find((r) => r.metric === spec.metric);
      if (modelRow) {
        out.push(judge(spec, m.model, null, modelRow, o));
        continue;
      }
      for (const [question, rows] of Object.entries(m.questions)) {
        if (spec.question !== null && spec.question !== question) continue;
        const row = rows.find((r) => r.metric === spec.metric);
        if (row) out.push(judge(spec, m.model, question, row, o));
      }
    }
  }
  return out;
}

/**
 * One result per model, question and compared metric (only those `only` names, when given): failed
 * when the difference is worse and its whole interval is on the worse side of 0.
 */
export function evaluateRegressions(
  comparison: RunComparison,
  o: { minItems: number; only?: readonly { question: string | null; metric: string }[] | undefined },
): GateResult[] {
  const out: GateResult[] = [];
  for (const pair of comparison.pairs) {
    for (const [question, q] of Object.entries(pair.questions)) {
      for (const m of q.metrics) {
        if (o.only && !o.only.some((x) => x.metric === m.metric && (x.question === null || x.question === question))) continue;
        const label = `${question}.${m.metric}`;
        const bound = m.higher_is_better ? 'high' : 'low';
        const base = {
          kind: 'regression',
          name: `${label} not worse than the baseline`,
          model: pair.model,
          question,
          metric: m.metric,
          limit: 0,
          bound,
          value: m.delta,
          interval: m.interval,
          n: q.n,
        } as const;
        const said = `${pair.model} ${label}${m.delta === null ? '' : ` changed by ${fmt(m.delta)}`} from the baseline's ${m.baseline === null ? 'undefined value' : fmt(m.baseline)} (${m.interval ? `paired 95% interval [${fmt(m.interval.low)}, ${fmt(m.interval.high)}]` : 'no interval'}, n ${q.n})`;
        if (q.n < o.minItems || m.delta === null || m.interval === null) {
          const why = q.n < o.minItems ? `both runs answered ${q.n} items, fewer than ${o.minItems}` : 'no difference or interval could be made';
          out.push({ ...base, compared: null, status: 'insufficient', message: `${said}: insufficient data: ${why}` });
          continue;
        }
        const compared = m.higher_is_better ? m.interval.high : m.interval.low;
        const worse = m.higher_is_better ? compared < 0 : compared > 0;
        out.push({
          ...base,
          compared,
          status: worse ? 'fail' : 'pass',
          message: `${said}: ${worse ? `worse than the baseline: the whole interval is ${m.higher_is_better ? 'below' : 'above'} 0` : 'not worse beyond its interval'}`,
        });
      }
    }
  }
  return out;
}
