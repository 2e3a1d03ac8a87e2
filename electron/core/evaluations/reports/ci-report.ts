/**
 * The report `verdict eval` writes (`--report`, `--format json`): the screen's report of the run
 * (electron/core/evaluations/reports/report.ts, with detail), its yes/no figures at `--threshold`, each
 * metric as a row with its n, interval and method, the comparison with a baseline as the screen's
 * comparison makes it, the thresholds judged, and the outcome with the exit code. Versioned: fields
 * are only added within a `report_version`; the JSON Schema is docs/eval-report.schema.json. Pure.
 */
import type { EvalReport, EvalRun, RunComparison } from '../../../../shared/schemas/evaluation';
import { costPerItem } from '../../../../shared/metrics/cost';
import { atReportThreshold } from './at-threshold';
import { evaluateGates, evaluateRegressions, type GateOptions, type GateResult } from './gates';
import type { GateSpec } from './gate-specs';
import { modelRows, questionRows, type MetricRow } from './metric-table';

export const REPORT_VERSION = 1;

/** 0: completed and every threshold met; 3: completed with a threshold not met; 1: could not complete. (2, bad input, writes no report.) */
export type ExitCode = 0 | 1 | 3;

export interface BaselineSource {
  /** `file`: a results file of an earlier --results, stored in the data directory as a run to compare with; `run`: a run of the data directory */
  source: 'file' | 'run';
  file: string | null;
  /** what the command line noticed while reading the baseline (items only on one side, expected answers that changed) */
  notes: string[];
}

export interface CiOptions extends GateOptions {
  threshold: number;
  verdictVersion: string;
  gates: readonly GateSpec[];
  regression: { only?: readonly { question: string | null; metric: string }[] | undefined } | null;
  allowInsufficient: boolean;
}

type CiQuestion = EvalReport['models'][number]['questions'][string] & { metrics: MetricRow[] };
type CiModel = Omit<EvalReport['models'][number], 'questions'> & { cost_per_item: number | null; metrics: MetricRow[]; questions: Record<string, CiQuestion> };

export interface CiReport {
  report_version: number;
  verdict_version: string;
  run: {
    id: string;
    name: string;
    status: EvalRun['status'];
    message: string | null;
    created_at: string;
    finished_at: string | null;
    dataset_id: string;
    models: string[];
    spent_usd: number;
  };
  threshold: number;
  dataset: { items: number };
  interval_method: string;
  min_final_n: number;
  min_items: number;
  gate_on: 'bound' | 'point';
  /** whether insufficient data lets the gate pass (--allow-insufficient) */
  allow_insufficient: boolean;
  models: CiModel[];
  baseline: (BaselineSource & { run_id: string; name: string; created_at: string } & Omit<RunComparison, 'runs'>) | null;
  gates: GateResult[];
  outcome: 'pass' | 'fail' | 'incomplete';
  exit_code: ExitCode;
}

function ciModel(m: EvalReport['models'][number], threshold: number): CiModel {
  const questions = Object.fromEntries(
    Object.entries(m.questions).map(([name, q]) => {
      const at = atReportThreshold(q, threshold);
      return [name, { ...at, metrics: questionRows(at) }];
    }),
  );
  return { ...m, cost_per_item: costPerItem(m), metrics: modelRows(m), questions };
}

export function outcomeOf(
  status: EvalRun['status'],
  gates: readonly GateResult[],
  allowInsufficient: boolean,
): { outcome: CiReport['outcome']; exit_code: ExitCode } {
  if (status !== 'done') return { outcome: 'incomplete', exit_code: 1 };
  const unmet = gates.some((g) => g.status === 'fail' || (g.status === 'insufficient' && !allowInsufficient));
  return unmet ? { outcome: 'fail', exit_code: 3 } : { outcome: 'pass', exit_code: 0 };
}

export function ciReport(input: {
  report: EvalReport;
  run: EvalRun;
  comparison: RunComparison | null;
  baseline: BaselineSource | null;
  options: CiOptions;
}): CiReport {
  const { report, run, comparison, options: o } = input;
  const models = report.models.map((m) => ciModel(m, o.threshold));
  const gates = evaluateGates(
    o.gates,
    models.map((m) => ({ model: m.model, model_rows: m.metrics, questions: Object.fromEntries(Object.entries(m.questions).map(([k, q]) => [k, q.metrics])) })),
    o,
  );
  if (comparison && o.regression) gates.push(...evaluateRegressions(comparison, { minItems: o.minItems, only: o.regression.only }));
  const base = comparison?.runs[1];
  return {
    report_version: REPORT_VERSION,
    verdict_version: o.verdictVersion,
    run: {
      id: run.id,
      name: run.name,
      status: run.status,
      message: run.message,
      created_at: run.created_at,
      finished_at: run.finished_at,
      dataset_id: run.dataset_id,
      models: run.variants.map((v) => v.name),
      spent_usd: run.spent_usd,
    },
    threshold: o.threshold,
    dataset: report.dataset,
    interval_method: report.interval_method ?? '',
    min_final_n: report.min_final_n ?? 0,
    min_items: o.minItems,
    gate_on: o.on,
    allow_insufficient: o.allowInsufficient,
    models,
    baseline:
      comparison && base && input.baseline
        ? {
            ...input.baseline,
            run_id: base.id,
            name: base.name,
            created_at: base.created_at,
            interval_method: comparison.interval_method,
            pairs: comparison.pairs,
            not_compared: comparison.not_compared,
            changed: comparison.changed,
            changed_total: comparison.changed_total,
            ...(comparison.changed_counts ? { changed_counts: comparison.changed_counts } : {}),
          }
        : null,
    gates,
    ...outcomeOf(run.status, gates, o.allowInsufficient),
  };
}
