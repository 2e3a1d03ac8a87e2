/**
 * `verdict eval` (`npm run eval` in a checkout): a question set over a labelled dataset on one or
 * more models, without the UI, as a gate a pipeline can run. Exit 0 when the run completed and every
 * threshold was met, 3 when it completed with a threshold not met, 2 on bad input (nothing sent), 1
 * when it could not complete. See eval/usage.ts and docs/EVAL-CI.md.
 */
import { auditedImport, createCore, type Core, fileRows, usdText, ciReport, FileSecretStore, ownerOnlyFileCodec, createLogger } from '../core';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EvalRun } from '../../shared/schemas/evaluation';
import { defaultDataDir } from './data-dir';
import { readArgs, type EvalOptions } from './eval/args';
import { BadInput, bad } from './eval/bad-input';
import { placeBaseline, readBaseline, type PlacedBaseline } from './eval/baseline';
import { checkBudget } from './eval/budget';
import { printCascade } from './eval/cascade';
import { printReport, writeFiles, writeResults } from './eval/outputs';
import { progressBar, sandboxOptions } from './eval/progress';
import { USAGE } from './eval/usage';

/** The version of the package this file was built into: the nearest package.json named verdict above it. */
function verdictVersion(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)), i = 0; i < 5; dir = dirname(dir), i += 1) {
    const path = join(dir, 'package.json');
    if (!existsSync(path)) continue;
    const pkg = JSON.parse(readFileSync(path, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === 'verdict' && pkg.version) return pkg.version;
  }
  return '0.0.0';
}

async function main(argv: string[]): Promise<number> {
  const o = readArgs(argv);
  if (o.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const dataDir = o.dataDir ?? process.env['VERDICT_DATA_DIR'] ?? defaultDataDir();
  const version = verdictVersion();
  const core = await createCore({
    dataDir,
    secrets: new FileSecretStore(join(dataDir, 'secrets.json'), ownerOnlyFileCodec),
    host: 'browser',
    version,
    logger: createLogger({ level: process.env['VERDICT_LOG_LEVEL'] ?? 'warn' }),
    ...sandboxOptions(),
    discovery: false,
    requestLog: 'read',
    resumeEvaluations: false,
  });
  try {
    await core.refreshDiscovery().catch(() => undefined);
    for (const m of o.models) if (!core.catalog.hasModel(m)) bad(`--model ${m}: no such model in the catalog of ${dataDir}`);
    return await evaluate(core, o, version);
  } finally {
    await core.close();
  }
}

/** The dataset file imported (checked against the set; every problem named), as the command line's import. */
async function importDataset(core: Core, o: EvalOptions) {
  const imported = await auditedImport(
    core.audit,
    { kind: 'command_line' },
    await core.datasets.import({ name: `eval: ${basename(o.dataset)}`, rows: fileRows(o.dataset), questions: o.request.questions, validOnly: o.validOnly }),
    { file: basename(o.dataset) },
  );
  for (const p of imported.problems) process.stderr.write(`${p.file}: row ${p.row}, ${p.field}: ${p.message}\n`);
  const rows = (n: number) => `${n} ${n === 1 ? 'row' : 'rows'}`;
  if (!imported.dataset) bad(`${basename(o.dataset)}: ${rows(imported.skipped)} with problems; nothing was run (--valid-only runs the valid rows)`);
  if (imported.skipped > 0) process.stderr.write(`Skipped ${rows(imported.skipped)} with problems.\n`);
  return imported.dataset;
}

/** Waits for the run, with its progress on stderr (a bar on a terminal, a line every two seconds otherwise); Ctrl-C cancels it. */
async function waitWithProgress(core: Core, run: EvalRun): Promise<EvalRun> {
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
  return run;
}

async function evaluate(core: Core, o: EvalOptions, version: string): Promise<number> {
  const baselineRef = o.baseline ? await readBaseline(core, o.baseline) : null;
  const dataset = await importDataset(core, o);
  const variants = o.models.map((model) => ({ model }));
  const estimate = await core.handlers['evals.estimate']({ request: o.request, dataset_id: dataset.id, variants });
  process.stderr.write(
    `${estimate.calls} requests (${dataset.items} items × ${o.models.length} ${o.models.length === 1 ? 'model' : 'models'}); estimate: ${estimate.input_tokens} input and ${estimate.output_tokens} output tokens, ` +
      `${estimate.cost_usd === null ? 'cost unknown (a price is unknown)' : `about ${usdText(estimate.cost_usd)}`}${o.budget !== null ? `; budget $${o.budget}` : ''}\n`,
  );
  checkBudget(estimate, o.budget);
  const placed: PlacedBaseline | null = baselineRef ? await placeBaseline(core, baselineRef, { id: dataset.id, file: basename(o.dataset) }, o.request) : null;
  let run = await core.evalRuns.start({
    request: o.request,
    dataset_id: placed?.datasetId ?? dataset.id,
    variants,
    concurrency: o.concurrency,
    budget_usd: o.budget,
  });
  // Set at once, so the Evaluations screen shows the run with its baseline while it runs.
  if (placed) run = await core.evalRuns.setBaseline(run.id, placed.baselineId);
  // Saved calibrations of this question set apply to its runs: said, so a report is not read as raw.
  for (const c of run.calibrations ?? [])
    process.stderr.write(
      `Applying the saved calibration of ${o.models[c.variant]} on "${c.question}": T = ${Number(c.temperature.toPrecision(4))} (the raw answers are kept beside the calibrated ones in --results JSONL)\n`,
    );
  run = await waitWithProgress(core, run);
  const comparison = placed ? await core.evalReports.compare(run.id, placed.baselineId) : null;
  const report = ciReport({
    report: await core.evalReports.report(run.id, { detail: true }),
    run,
    comparison,
    baseline: placed?.source ?? null,
    options: {
      threshold: o.threshold,
      verdictVersion: version,
      gates: o.gates,
      regression: o.regression,
      allowInsufficient: o.allowInsufficient,
      minItems: o.minItems,
      on: o.gateOn,
    },
  });
  writeFiles(report, o);
  if (o.results)
    await writeResults(core, run.id, o.results, {
      id: run.id,
      name: run.name,
      created_at: run.created_at,
      questions: o.request.questions,
      provider: o.request.provider,
    });
  printReport(report, o.format);
  if (o.cascade)
    printCascade(
      await core.evalReports.cascadeCurve(run.id, {
        first_variant: o.models.indexOf(o.cascade.models[0]),
        second_variant: o.models.indexOf(o.cascade.models[1]),
        question: o.cascade.question,
      }),
      o.cascade.target,
    );
  if (run.status !== 'done') process.stderr.write(`The run did not complete: ${run.status}${run.message ? ` (${run.message})` : ''}\n`);
  return report.exit_code;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof BadInput) {
      process.stderr.write(error.showUsage ? `${error.message}\n\nverdict eval --help lists every option.\n` : `${error.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
