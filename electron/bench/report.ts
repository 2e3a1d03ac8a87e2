import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';

/** One measured figure; `met` is set for figures with a target (true when the figure reaches it). */
export interface BenchRow {
  measure: string;
  result: string;
  target: string;
  met?: boolean;
}

/** A target's text and whether the figure met it, made together so what the reader sees and the check cannot drift apart. */
export interface Goal {
  text: string;
  met: boolean;
}
export const atMost = (limit: number, unit: string, value: number): Goal => ({ text: `≤ ${limit}${unit}`, met: value <= limit });
export const atLeast = (limit: number, unit: string, value: number): Goal => ({ text: `≥ ${limit}${unit}`, met: value >= limit });
export const below = (limit: number, unit: string, value: number): Goal => ({ text: `< ${limit}${unit}`, met: value < limit });

/** A row, checked against its goal when it has one; a row without a target has no verdict. */
export function row(measure: string, result: string, goal?: Goal): BenchRow {
  return goal ? { measure, result, target: goal.text, met: goal.met } : { measure, result, target: '' };
}

const verdict = (r: BenchRow) => (r.met === undefined ? '' : r.met ? 'MET' : 'MISSED');

/** The figures as aligned lines for the terminal: measure, result, target, MET or MISSED; then a one-line summary. */
export function formatForTerminal(title: string, rows: BenchRow[]): string {
  const cells = [['measure', 'result', 'target', ''], ...rows.map((r) => [r.measure, r.result, r.target, verdict(r)])];
  const widths = [0, 1, 2].map((c) => Math.max(...cells.map((line) => line[c]!.length)));
  const lines = cells.map((line) =>
    line
      .map((cell, c) => (c < 3 ? cell.padEnd(widths[c]!) : cell))
      .join('  ')
      .trimEnd(),
  );
  const checked = rows.filter((r) => r.met !== undefined);
  const missed = checked.filter((r) => r.met === false);
  const summary =
    missed.length === 0
      ? `All ${checked.length} targets met.`
      : `${missed.length} of ${checked.length} targets MISSED: ${missed.map((r) => r.measure).join('; ')}.`;
  return `\n${title}\n\n${lines.join('\n')}\n\n${summary}\n`;
}

/** The figures as a Markdown table with a status column. */
export function markdownTable(resultHeader: string, rows: BenchRow[]): string {
  return [
    '| measure | ' + resultHeader + ' | target | status |',
    '|---|---|---|---|',
    ...rows.map((r) => `| ${r.measure} | ${r.result} | ${r.target} | ${verdict(r)} |`),
  ].join('\n');
}

/** Replaces (or adds) one `## title` section of a benchmarks Markdown file with freshly measured figures. */
export function writeSection(path: string, title: string, body: string): void {
  const header = '# Benchmarks\n\nFigures measured by `npm run bench` (`bench:gateway`, `bench:decisions`) on the machine named in each section.\n';
  const text = existsSync(path) ? readFileSync(path, 'utf8') : header;
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`;
  const section = `## ${title}\n\nMachine: ${machine}\n\n${body.trim()}\n`;
  const pattern = new RegExp(`## ${title}\\n[\\s\\S]*?(?=\\n## |$)`);
  const next = pattern.test(text) ? text.replace(pattern, section) : `${text.trimEnd()}\n\n${section}`;
  writeFileSync(path, next.endsWith('\n') ? next : `${next}\n`);
}

/** Where a run's figures go: always the untracked results file; the tracked docs only with --write-docs. */
export const RESULTS_FILE = 'bench-results.md';

export interface Publish {
  root: string;
  argv: string[];
  title: string;
  resultHeader: string;
  rows: BenchRow[];
  detail: string;
  out?: (text: string) => void;
}

export function publish({ root, argv, title, resultHeader, rows, detail, out = (t) => process.stdout.write(t) }: Publish): void {
  out(formatForTerminal(title, rows));
  const body = `${markdownTable(resultHeader, rows)}\n\n${detail}`;
  writeSection(join(root, RESULTS_FILE), title, body);
  out(`Written to ${RESULTS_FILE} (not tracked).`);
  if (argv.includes('--write-docs')) {
    writeSection(join(root, 'docs', 'BENCHMARKS.md'), title, body);
    out(' Also written to docs/BENCHMARKS.md.\n');
  } else {
    out(' docs/BENCHMARKS.md is unchanged; `npm run bench -- --write-docs` updates it.\n');
  }
}

export const fmt = (value: number, digits = 2) => value.toFixed(digits);
