/** The command line read and checked: everything that can be wrong with it is said (exit 2) before anything is sent. */
import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_CONCURRENCY } from '../../../shared/contract/eval-operations';
import { summarizeIssues } from '../../../shared/contract/result';
import { DecisionsRequestSchema, type DecisionsRequest } from '../../../shared/schemas/decisions-request';
import type { Question } from '../../../shared/schemas/question';
import { formatOf, onThresholdGrid, parseGates, parseRegressionMetrics, type GateSpec, MIN_FINAL_N } from '../../core';
import { bad } from './bad-input';
import { cascadeOption, type CascadeOption } from './cascade';
import { flags, HELP, repeated, valued } from '../cli-options';

export interface EvalOptions {
  help: boolean;
  request: DecisionsRequest;
  models: string[];
  dataset: string;
  dataDir: string | undefined;
  concurrency: number;
  budget: number | null;
  validOnly: boolean;
  report: string | undefined;
  results: string | undefined;
  junit: string | undefined;
  summary: string | undefined;
  format: 'table' | 'json';
  threshold: number;
  baseline: string | undefined;
  gates: GateSpec[];
  regression: { only?: { question: string | null; metric: string }[] | undefined } | null;
  gateOn: 'bound' | 'point';
  minItems: number;
  allowInsufficient: boolean;
  cascade: CascadeOption | undefined;
}

const OPTIONS = {
  ...valued(
    'set',
    'dataset',
    'model',
    'data-dir',
    'report',
    'results',
    'junit',
    'summary',
    'format',
    'threshold',
    'baseline',
    'regression-metrics',
    'gate-on',
    'min-items',
    'concurrency',
    'budget',
    'cascade',
    'cascade-question',
    'target-accuracy',
    'max-cost-per-item',
  ),
  ...repeated('fail-under', 'fail-over'),
  ...flags('fail-on-regression', 'allow-insufficient', 'valid-only'),
  ...HELP,
};

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
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n)))
    bad(`${flag} must be a ${integer ? 'whole number' : 'number'} above 0, not "${value}"`);
  return n;
}

function threshold(value: string | undefined): number {
  if (value === undefined) return 0.5;
  const t = Number(value);
  if (value.trim() === '' || !Number.isFinite(t) || !onThresholdGrid(t))
    bad(`--threshold must be a probability from 0 to 1 in steps of 0.01 (as the Evaluations screen's slider), not "${value}"`);
  return Math.round(t * 100) / 100;
}

function oneOf<T extends string>(flag: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) bad(`${flag} is one of ${allowed.join(', ')}, not "${value}"`);
  return value as T;
}

export function readArgs(argv: string[]): EvalOptions | { help: true } {
  let values;
  try {
    values = parseArgs({ args: argv, options: OPTIONS }).values;
  } catch (error) {
    bad((error as Error).message);
  }
  if (values.help) return { help: true };
  const cascade = cascadeOption(values);
  if (!values.set || !values.dataset || (!values.model && !cascade)) bad('--set, --dataset and --model (or --cascade) are required');
  const request = readSet(values.set);
  const questions = request.questions as Record<string, Question>;
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
  const format = oneOf('--format', values.format, ['table', 'json'] as const, 'table');
  if (format === 'json' && cascade) bad('--format json writes the report alone to stdout; the cascade curve is a table: leave out one of them');
  const gates = parseGates(values['fail-under'] ?? [], values['fail-over'] ?? [], questions);
  if (gates.problems.length) bad(gates.problems.join('\n'));
  if (values['fail-on-regression'] && !values.baseline) bad('--fail-on-regression compares with a baseline: give --baseline FILE|RUN_ID');
  if (values['regression-metrics'] !== undefined && !values['fail-on-regression']) bad('--regression-metrics goes with --fail-on-regression');
  const only = values['regression-metrics'] === undefined ? undefined : parseRegressionMetrics(values['regression-metrics'], questions);
  if (typeof only === 'string') bad(only);
  const minItems = positiveNumber('--min-items', values['min-items'], true) ?? MIN_FINAL_N;
  return {
    help: false,
    request,
    models,
    dataset: values.dataset,
    dataDir: values['data-dir'],
    concurrency: positiveNumber('--concurrency', values.concurrency, true) ?? DEFAULT_CONCURRENCY,
    budget: positiveNumber('--budget', values.budget, false) ?? null,
    validOnly: values['valid-only'] ?? false,
    report: values.report,
    results: values.results,
    junit: values.junit,
    summary: values.summary,
    format,
    threshold: threshold(values.threshold),
    baseline: values.baseline,
    gates: gates.gates,
    regression: values['fail-on-regression'] ? { only } : null,
    gateOn: oneOf('--gate-on', values['gate-on'], ['bound', 'point'] as const, 'bound'),
    minItems,
    allowInsufficient: values['allow-insufficient'] ?? false,
    cascade,
  };
}
