import { DEFAULT_CONCURRENCY } from '../../../shared/contract/eval-operations';

export const USAGE = `Usage:
  verdict eval --set SET.json --dataset DATA.jsonl|DATA.csv|DATA.json --model A[,B...] [options]
  (in a checkout of Verdict: npm run eval -- …)

Run:
  --data-dir DIR                 the data directory (catalog, keys, runs); default VERDICT_DATA_DIR or the app's
  --concurrency N                requests at once (${DEFAULT_CONCURRENCY})
  --budget USD                   stop before a request could pass this spend
  --valid-only                   run the dataset's valid rows, skipping the others

Report:
  --threshold P                  yes/no answers say yes at P(true) >= P for precision, recall, F1 and counts
                                 (0.5; steps of 0.01, as the Evaluations screen's slider)
  --report FILE                  the JSON report (report_version 1; schema: docs/eval-report.schema.json)
  --results FILE                 one JSON line per item and model (a later run's --baseline)
  --format table|json            stdout: a table (default), or the JSON report for scripts
  --junit FILE                   JUnit XML: a suite per model, a case per threshold
  --summary FILE                 Markdown summary; also appended to $GITHUB_STEP_SUMMARY when that is set

Baseline:
  --baseline FILE|RUN_ID         an earlier --results file, or a run id of the data directory: each
                                 metric's paired difference and the answers that changed

Thresholds (exit 3 when one is not met):
  --fail-under QUESTION.METRIC=VALUE   fail when the metric is below VALUE (repeatable); METRIC=VALUE
                                       applies to every question that has the metric
  --fail-over QUESTION.METRIC=VALUE    fail when it is above VALUE, for metrics better lower
                                       (ece, brier, log_loss, mae, cost_per_item, latency_p95_ms …)
  --fail-on-regression           fail when a metric is worse than the baseline's beyond its 95% interval
  --regression-metrics LIST      only these metrics (METRIC or QUESTION.METRIC, comma-separated)
  --gate-on bound|point          judge the interval's conservative end (bound, default) or the value
  --min-items N                  fewer items than this is insufficient data (30, the screen's provisional mark)
  --allow-insufficient           insufficient data does not fail the command (it is still reported)
  Metrics: accuracy precision recall f1 base_rate brier log_loss auroc ece (yes/no); accuracy macro_f1
  brier log_loss ece (choice); mae exact qwk (score); mean_iou pass_rate (box); cost_per_item
  latency_p50_ms latency_p95_ms (per model).

Cascade:
  --cascade FIRST,SECOND [--cascade-question NAME] [--target-accuracy 0.95 | --max-cost-per-item USD]
                                 prints the curve of a cascade from FIRST to SECOND (both run; --model may
                                 be left out), computed from their answers, and the threshold that meets the target

Progress goes to stderr; results to stdout and the files named.
Exit 0: completed and every threshold met; 3: completed with a threshold not met (each named with its
value); 2: bad input (nothing sent); 1: could not complete (budget reached, interrupted, an error).`;
