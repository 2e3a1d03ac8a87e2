/** The report written where it was asked for: files, stdout, and the GitHub step summary. Every file is written before the command exits, whatever its code. */
import { appendFileSync, createWriteStream, existsSync, statSync, writeFileSync } from 'node:fs';
import { type Core, type CiReport, junitXml, markdownSummary, SUMMARY_LIMIT, formatTable, resultLine } from '../../core';
import type { EvalReport } from '../../../shared/schemas/evaluation';
import { withRecordedRun, type RecordedRun } from './results-file';

/** GitHub uploads a step's summary only up to 1 MiB (a larger one is dropped while the step stays green). */
const STEP_SUMMARY_BYTES = 1024 * 1024;

export async function writeResults(core: Core, runId: string, path: string, recorded: RecordedRun): Promise<void> {
  const out = createWriteStream(path);
  let first = true;
  for await (const { item, result } of core.evalResults.rows(runId)) {
    const line = first ? withRecordedRun(resultLine(item, result), recorded) : resultLine(item, result);
    first = false;
    if (!out.write(line)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

/** Appends the summary to $GITHUB_STEP_SUMMARY, cut to what the step's 1 MiB leaves (a UTF-8 character takes up to 4 bytes). */
export function appendStepSummary(path: string, report: CiReport): void {
  const used = existsSync(path) ? statSync(path).size : 0;
  const room = Math.floor((STEP_SUMMARY_BYTES - used) / 4);
  if (room < 200) {
    process.stderr.write(`$GITHUB_STEP_SUMMARY already holds ${used} bytes, next to GitHub's 1 MiB for a step: the summary was not added\n`);
    return;
  }
  appendFileSync(path, `${used > 0 ? '\n' : ''}${markdownSummary(report, Math.min(SUMMARY_LIMIT, room))}`);
}

export function writeFiles(
  report: CiReport,
  o: { report?: string | undefined; junit?: string | undefined; summary?: string | undefined; allowInsufficient: boolean },
): void {
  if (o.report) writeFileSync(o.report, `${JSON.stringify(report, null, 2)}\n`);
  if (o.junit) writeFileSync(o.junit, junitXml(report, { allowInsufficient: o.allowInsufficient }));
  if (o.summary) writeFileSync(o.summary, markdownSummary(report));
  const step = process.env['GITHUB_STEP_SUMMARY'];
  if (step) appendStepSummary(step, report);
}

/** stdout: the JSON report for scripts, or the short table with the thresholds and the baseline in words. */
export function printReport(report: CiReport, format: 'table' | 'json'): void {
  if (format === 'json') {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  process.stdout.write(formatTable(report as unknown as EvalReport));
  const b = report.baseline;
  if (b) {
    const c = b.changed_counts;
    process.stdout.write(
      `\nAgainst the baseline "${b.name}": ${c ? `${c.worse} answers worse, ${c.better} better, ${c.changed} changed with neither right` : `${b.changed_total} answers changed`}\n`,
    );
    for (const note of b.notes) process.stdout.write(`  ${note}\n`);
  }
  if (report.gates.length === 0) return;
  process.stdout.write('\n');
  for (const g of report.gates) process.stdout.write(`${g.status === 'pass' ? 'met' : g.status === 'fail' ? 'NOT MET' : 'INSUFFICIENT'}  ${g.message}\n`);
  const unmet = report.gates.filter((g) => g.status !== 'pass').length;
  process.stdout.write(`${report.gates.length - unmet} of ${report.gates.length} thresholds met\n`);
}
