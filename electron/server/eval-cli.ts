/**
 * `npm run eval`: a question set over a labelled dataset on one or more models, without the UI.
 * Exit 0 when the run completed, 2 on bad input (file, row and field named), 1 when it could not complete.
 */
import { auditedImport } from '../core/audit/audited';
import { createWriteStream, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { summarizeIssues } from '../../shared/contract/result';
import { DecisionsRequestSchema, type DecisionsRequest } from '../../shared/schemas/decisions-request';
import type { EvalEstimate, EvalReport, EvalRun } from '../../shared/schemas/evaluation';
import { createCore } from '../core/create-core';
import type { Core } from '../core/core';
import { fileRows, formatOf } from '../core/datasets/dataset-sources';
import { estimateRun } from '../core/evaluations/estimate';
import { usdText } from '../core/evaluations/eval-runner';
import { FileSecretStore, ownerOnlyFileCodec } from '../core/keys/secret-store';
import { createLogger } from '../core/logger';
import { defaultDataDir } from './data-dir';
import { formatTable, resultLine } from '../core/evaluations/results-export';
import { formatCurve, pickPoint } from '../core/evaluations/cascade-curve';
import type { CascadeCurve, CascadeTarget } from '../../shared/schemas/cascade-curve';

const USAGE = `Usage:
  npm run eval -- --set SET.json --dataset DATA.jsonl|DATA.csv|DATA.json --model A[,B...]
                  [--data-dir DIR] [--report report.json] [--results results.jsonl]
                  [--concurrency N] [--budget USD] [--valid-only]
                  [--cascade FIRST,SECOND [--cascade-question NAME]
                   [--target-accuracy 0.95 | --max-cost-per-item USD]]
--cascade prints the curve of a cascade from FIRST to SECOND (both run; --model may be left out),
computed from their answers, and the threshold that meets the target.
Exit 0 when the run completed, 2 on bad input, 1 when it could not complete.`;

class BadInput extends Error {
  constructor(
    message: string,
    readonly showUsage = true,
  ) {
    super(message);
  }
}

function bad(message: string, showUsage = true): never {
  throw new BadInput(message, showUsage);
}

function readSet(path: string): DecisionsRequest {
  if (!existsSync(path)) bad(`--set ${path}: no such file`);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    bad(`${basename(path)}: not valid JSON: ${(error as Error).message}`);
  }
  // The set's own state is ignored: each item brings its own.
  const withState = json && typeof json === 'object' && !Array.isArray(json) ? { ...(json as object), state: '' } : json;
  const parsed = DecisionsRequestSchema.safeParse(withState);
  if (!parsed.success) bad(`${basename(path)}: not a question set: ${summarizeIssues(parsed.error)}`);
  return parsed.data;
}

function positiveNumber(flag: string, value: string | undefined, integer: boolean): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n)))
    bad(`${flag} must be a ${integer ? 'whole number' : 'number'} above 0, not "${value}"`);
  return n;
}

async function main(argv: string[]): Promise<number> {
  let values;
  try {
    values = parseArgs({
      args: argv,
      options: {
        set: { type: 'string' },
        dataset: { type: 'string' },
        model: { type: 'string' },
        'data-dir': { type: 'string' },
        report: { type: 'string' },
        results: { type: 'string' },
        concurrency: { type: 'string' },
        budget: { type: 'string' },
        'valid-only': { type: 'boolean' },
        cascade: { type: 'string' },
        'cascade-question': { type: 'string' },
        'target-accuracy': { type: 'string' },
        'max-cost-per-item': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (error) {
    bad((error as Error).message);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const cascade = cascadeOption(values);
  if (!values.set || !values.dataset || (!values.model && !cascade)) bad('--set, --dataset and --model (or --cascade) are required');
  const request = readSet(values.set);
  if (!existsSync(values.dataset)) bad(`--dataset ${values.dataset}: no such file`);
  if (!formatOf(values.dataset)) bad(`--dataset ${values.dataset}: expected a .csv, .jsonl or .json file`);
  const models = (values.model ?? '')
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);
  // The cascade's models are run too, each once.
  for (const m of cascade?.models ?? []) if (!models.includes(m)) models.push(m);
  if (models.length === 0) bad('--model names no model');
  if (cascade?.question !== undefined && !(cascade.question in request.questions))
    bad(`--cascade-question ${cascade.question}: the set has no such question (it has ${Object.keys(request.questions).join(', ')})`);
  const concurrency = positiveNumber('--concurrency', values.concurrency, true) ?? 4;
  const budget = positiveNumber('--budget', values.budget, false) ?? null;

  const dataDir = values['data-dir'] ?? process.env['VERDICT_DATA_DIR'] ?? defaultDataDir();
  const core = await createCore({
    dataDir,
    secrets: new FileSecretStore(join(dataDir, 'secrets.json'), ownerOnlyFileCodec),
    host: 'browser',
    version: '0.0.0',
    logger: createLogger({ level: process.env['VERDICT_LOG_LEVEL'] ?? 'warn' }),
    ...sandboxOptions(),
    discovery: false,
    requestLog: 'read',
    resumeEvaluations: false,
  });
  try {
    await core.refreshDiscovery().catch(() => undefined);
    for (const m of models) if (!core.catalog.hasModel(m)) bad(`--model ${m}: no such model in the catalog of ${dataDir}`);
    return await evaluate(core, {
      request,
      models,
      dataset: values.dataset,
      concurrency,
      budget,
      validOnly: values['valid-only'] ?? false,
      report: values.report,
      results: values.results,
      cascade,
    });
  } finally {
    await core.close();
  }
}

async function evaluate(
  core: Core,
  o: {
    request: DecisionsRequest;
    models: string[];
    dataset: string;
    concurrency: number;
    budget: number | null;
    validOnly: boolean;
    report?: string | undefined;
    results?: string | undefined;
    cascade?: CascadeOption | undefined;
  },
): Promise<number> {
  // The dataset an evaluation from the command line reads is logged as the command line's import.
  const imported = await auditedImport(
    core.audit,
    { kind: 'command_line' },
    await core.datasets.import({
      name: `eval: ${basename(o.dataset)}`,
      rows: fileRows(o.dataset),
      questions: o.request.questions,
      validOnly: o.validOnly,
    }),
    { file: basename(o.dataset) },
  );
  for (const p of imported.problems) process.stderr.write(`${p.file}: row ${p.row}, ${p.field}: ${p.message}\n`);
  const rows = (n: number) => `${n} ${n === 1 ? 'row' : 'rows'}`;
  if (!imported.dataset) bad(`${basename(o.dataset)}: ${rows(imported.skipped)} with problems; nothing was run (--valid-only runs the valid rows)`);
  if (imported.skipped > 0) process.stderr.write(`Skipped ${rows(imported.skipped)} with problems.\n`);
  const variants = o.models.map((model) => ({ model }));
  const estimate = await estimateRun(core, { request: o.request, dataset_id: imported.dataset.id, variants });
  process.stderr.write(
    `${estimate.calls} requests (${imported.dataset.items} items × ${o.models.length} ${o.models.length === 1 ? 'model' : 'models'}); estimate: ${estimate.input_tokens} input and ${estimate.output_tokens} output tokens, ` +
      `${estimate.cost_usd === null ? 'cost unknown (a price is unknown)' : `about ${usdText(estimate.cost_usd)}`}${o.budget !== null ? `; budget $${o.budget}` : ''}\n`,
  );
  checkBudget(estimate, o.budget);
  let run = await core.evalRuns.start({ request: o.request, dataset_id: imported.dataset.id, variants, concurrency: o.concurrency, budget_usd: o.budget });
  // Saved calibrations of this question set apply to its runs: said, so a report is not read as raw.
  for (const c of run.calibrations ?? [])
    process.stderr.write(
      `Applying the saved calibration of ${o.models[c.variant]} on "${c.question}": T = ${Number(c.temperature.toPrecision(4))} (the raw answers are kept beside the calibrated ones in --results JSONL)\n`,
    );
  const tty = process.stderr.isTTY === true;
  let lastLine = 0;
  let ticking = true;
  const progress = setInterval(() => {
    void core.evalRuns.get(run.id).then((now) => {
      // A reading that comes back after the run ended is not written over its last line.
      if (!ticking) return;
      if (tty) process.stderr.write(`\r${progressBar(now)}`);
      else if (Date.now() - lastLine >= 2000) {
        lastLine = Date.now();
        process.stderr.write(`${progressBar(now)}\n`);
      }
    });
  }, 250);
  const interrupt = () => void core.evalRuns.cancel(run.id);
  process.once('SIGINT', interrupt);
  try {
    run = await core.evalRuns.wait(run.id);
  } finally {
    ticking = false;
    clearInterval(progress);
    process.off('SIGINT', interrupt);
  }
  process.stderr.write(`${tty ? '\r' : ''}${progressBar(run)}\n`);
  const report: EvalReport = await core.evalRuns.report(run.id);
  if (o.report) writeFileSync(o.report, `${JSON.stringify(report, null, 2)}\n`);
  if (o.results) {
    const out = createWriteStream(o.results);
    for await (const { item, result } of core.evalRuns.rows(run.id)) {
      if (!out.write(resultLine(item, result))) await new Promise<void>((r) => out.once('drain', () => r()));
    }
    await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  }
  process.stdout.write(formatTable(report));
  if (o.cascade)
    printCascade(
      await core.evalRuns.cascadeCurve(run.id, {
        first_variant: o.models.indexOf(o.cascade.models[0]),
        second_variant: o.models.indexOf(o.cascade.models[1]),
        question: o.cascade.question,
      }),
      o.cascade.target,
    );
  if (run.status !== 'done') {
    process.stderr.write(`The run did not complete: ${run.status}${run.message ? ` (${run.message})` : ''}\n`);
    return 1;
  }
  return 0;
}

/**
 * Says what one request can cost at worst per model (what a budget holds for it before sending
 * it), and refuses a budget below the largest of them: such a run stops at its first request of
 * that model, before sending it, so a pipeline would pay for an import and a run that cannot
 * complete. A budget below the estimate only warns: the run may still finish under it.
 */
function checkBudget(estimate: EvalEstimate, budget: number | null): void {
  const on = estimate.worst_request_item === null ? '' : ` (on item ${estimate.worst_request_item}, the largest in the dataset)`;
  for (const v of estimate.per_variant) {
    process.stderr.write(
      `${v.variant}: one request can cost up to ${v.worst_request_usd === null ? `an unknown amount (${v.worst_request_note ?? 'unknown'})` : usdText(v.worst_request_usd)}${on}, every endpoint of its route tried with the longest replies; a budget holds that much for it before sending it\n`,
    );
  }
  if (estimate.min_budget_usd !== null) process.stderr.write(`Smallest budget that lets every model send a request: ${usdText(estimate.min_budget_usd)}\n`);
  if (budget === null) return;
  if (estimate.min_budget_usd === null) {
    process.stderr.write(
      `Warning: the smallest budget that lets the run send anything is unknown; the run stops at a request whose worst case is above what is left of --budget ${usdText(budget)}\n`,
    );
    return;
  }
  if (budget < estimate.min_budget_usd) {
    const worst = estimate.per_variant.reduce((a, b) => ((b.worst_request_usd ?? 0) > (a.worst_request_usd ?? 0) ? b : a));
    bad(
      `--budget ${usdText(budget)} is below what one request of ${worst.variant} can cost at worst (${usdText(worst.worst_request_usd!)}), which a budget holds before sending it: the run would stop at that request without sending it. Nothing was run; use --budget ${usdText(estimate.min_budget_usd)} or more, or no --budget.`,
      false,
    );
  }
  if (estimate.cost_usd !== null && budget < estimate.cost_usd)
    process.stderr.write(
      `Warning: --budget ${usdText(budget)} is below the estimate (about ${usdText(estimate.cost_usd)}): the run will likely stop before it ends\n`,
    );
}

interface CascadeOption {
  models: [string, string];
  question?: string | undefined;
  target?: CascadeTarget | undefined;
}

/** --cascade FIRST,SECOND with its question and target, checked. */
function cascadeOption(values: {
  cascade?: string | undefined;
  'cascade-question'?: string | undefined;
  'target-accuracy'?: string | undefined;
  'max-cost-per-item'?: string | undefined;
}): CascadeOption | undefined {
  const accuracy = values['target-accuracy'];
  const ceiling = values['max-cost-per-item'];
  if (!values.cascade) {
    for (const flag of ['cascade-question', 'target-accuracy', 'max-cost-per-item'] as const)
      if (values[flag] !== undefined) bad(`--${flag} goes with --cascade FIRST,SECOND`);
    return undefined;
  }
  const models = values.cascade.split(',').map((m) => m.trim());
  if (models.length !== 2 || !models[0] || !models[1]) bad(`--cascade names two models, the first and the second, not "${values.cascade}"`);
  if (models[0] === models[1]) bad('--cascade goes from one model to another: name two different models');
  if (accuracy !== undefined && ceiling !== undefined) bad('--target-accuracy and --max-cost-per-item: give one target, not both');
  let target: CascadeTarget | undefined;
  if (accuracy !== undefined) {
    const x = Number(accuracy);
    if (accuracy.trim() === '' || !Number.isFinite(x) || x < 0 || x > 1)
      bad(`--target-accuracy must be a share between 0 and 1 (0.95 for 95%), not "${accuracy}"`);
    target = { accuracy: x };
  }
  if (ceiling !== undefined) {
    const c = Number(ceiling);
    if (ceiling.trim() === '' || !Number.isFinite(c) || c < 0) bad(`--max-cost-per-item must be USD per item, 0 or more, not "${ceiling}"`);
    target = { max_cost_per_item: c };
  }
  return { models: [models[0], models[1]], question: values['cascade-question'], target };
}

/** The curve's table, then the threshold the target picks (or that none does, and the closest). */
function printCascade(curve: CascadeCurve, target: CascadeTarget | undefined): void {
  process.stdout.write(`\n${formatCurve(curve)}`);
  if (!target) return;
  const pick = pickPoint(curve.points, target);
  if (pick.reached) process.stdout.write(`Threshold ${pick.point.threshold}: ${pick.message}\nCondition: ${JSON.stringify(pick.point.condition)}\n`);
  else
    process.stdout.write(
      `${pick.message}${pick.closest ? `\nClosest: threshold ${pick.closest.threshold}, condition ${JSON.stringify(pick.closest.condition)}` : ''}\n`,
    );
}

function progressBar(run: EvalRun): string {
  const width = 30;
  const filled = run.total ? Math.round((run.done / run.total) * width) : 0;
  const eta = run.eta_ms === null ? '' : `, ETA ${Math.ceil(run.eta_ms / 1000)} s`;
  const waiting = run.waiting_ms === null ? '' : `, waiting ${Math.ceil(run.waiting_ms / 1000)} s (a provider answered 429 with Retry-After)`;
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${run.done}/${run.total} done, ${run.failed} failed, ${usdText(run.spent_usd)} spent${eta}${waiting}`;
}

function sandboxOptions(): { sandbox?: { timeScale?: number; failures?: boolean } } {
  const scale = process.env['VERDICT_SANDBOX_TIME_SCALE'];
  const failures = process.env['VERDICT_SANDBOX_FAILURES'];
  const sandbox: { timeScale?: number; failures?: boolean } = {};
  if (scale !== undefined && Number.isFinite(Number(scale)) && Number(scale) >= 0) sandbox.timeScale = Number(scale);
  if (failures === 'on' || failures === 'off') sandbox.failures = failures === 'on';
  return Object.keys(sandbox).length ? { sandbox } : {};
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof BadInput) {
      process.stderr.write(error.showUsage ? `${error.message}\n\n${USAGE}\n` : `${error.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
