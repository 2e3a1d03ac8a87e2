/**
 * `--baseline FILE|RUN_ID` put where the Evaluations screen finds it: the run being made is over the
 * baseline's dataset and has it as its baseline, so the screen shows the comparison the report has.
 * A run id of the data directory is used as it is when its items are the dataset file's (the file's
 * import is dropped); a results file is stored as a finished run over the imported dataset, matched
 * to its items by id. Nothing here computes a figure: the comparison is the screen's (run-comparison.ts).
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { DecisionsRequest } from '../../../shared/schemas/decisions-request';
import { type BaselineSource, type Core, type FinishedResult, type StoredEvalRun, setKey, isoTime } from '../../core';
import { bad } from './bad-input';
import { readResultsFile, type ResultsFile } from './results-file';

export type BaselineRef = { kind: 'file'; file: ResultsFile } | { kind: 'run'; id: string; datasetId: string; name: string };

/** Reads the baseline before anything is imported or sent: a file that exists, else a run of the data directory. */
export async function readBaseline(core: Core, arg: string): Promise<BaselineRef> {
  if (existsSync(arg)) return { kind: 'file', file: readResultsFile(arg) };
  const run = await core.evalRuns.get(arg).catch(() => null);
  if (!run) bad(`--baseline ${arg}: no such results file, and no run with that id in the data directory`, false);
  if (run.status === 'running') bad(`--baseline ${arg}: the run "${run.name}" is still running; a baseline is a finished run`, false);
  return { kind: 'run', id: run.id, datasetId: run.dataset_id, name: run.name };
}

/** The first item where two datasets differ (id, content or expected answers), or null when they hold the same items. */
async function firstDifference(core: Core, a: string, b: string): Promise<string | null> {
  const left = core.datasets.iterate(a);
  const right = core.datasets.iterate(b);
  for (let position = 0; ; position += 1) {
    const [x, y] = await Promise.all([left.next(), right.next()]);
    if (x.done || y.done) return x.done && y.done ? null : `one has ${position} items, the other more`;
    const same =
      x.value.id === y.value.id &&
      JSON.stringify(x.value.state) === JSON.stringify(y.value.state) &&
      JSON.stringify(x.value.expected) === JSON.stringify(y.value.expected);
    if (!same) return `item ${position + 1} ("${y.value.id}") differs`;
  }
}

export interface PlacedBaseline {
  datasetId: string;
  baselineId: string;
  source: BaselineSource;
}

export async function placeBaseline(core: Core, ref: BaselineRef, imported: { id: string; file: string }, request: DecisionsRequest): Promise<PlacedBaseline> {
  if (ref.kind === 'run') {
    const difference = await firstDifference(core, ref.datasetId, imported.id);
    await core.datasets.delete(imported.id);
    if (difference)
      bad(
        `--baseline ${ref.id}: the run "${ref.name}" is over other items than ${imported.file} (${difference}); a baseline run is over the same items. Its results file (--results, or the screen's JSONL export) compares the items both have.`,
        false,
      );
    return { datasetId: ref.datasetId, baselineId: ref.id, source: { source: 'run', file: null, notes: [] } };
  }
  return { datasetId: imported.id, ...(await storeFileRun(core, ref.file, { id: imported.id, file: imported.file }, request)) };
}

/** The results file as a finished run over the dataset: each line's answers at the item of the same id. */
async function storeFileRun(
  core: Core,
  file: ResultsFile,
  dataset: { id: string; file: string },
  request: DecisionsRequest,
): Promise<{ baselineId: string; source: BaselineSource }> {
  const datasetId = dataset.id;
  const items = new Map((await core.datasets.expectations(datasetId)).map((i) => [i.id, i]));
  if (!file.lines.some((l) => items.has(l.id)))
    bad(`--baseline ${file.name}: none of its items is in ${dataset.file}; a baseline is over the same items`, false);
  const given: string[] = [];
  for (const l of file.lines) given[l.variant] ??= l.model;
  // Holes (a variant with no line) made undefined, so the check below sees them.
  const models = Array.from({ length: given.length }, (_, i) => given[i]);
  if (models.some((m, i) => m === undefined || file.lines.some((l) => l.variant === i && l.model !== m)))
    bad(`--baseline ${file.name}: its lines do not give one model per variant`, false);
  const notes: string[] = [];
  const questions = file.run?.questions ?? request.questions;
  if (!file.run) notes.push(`${file.name} does not record the questions its run asked; they are taken to be this run's.`);
  const now = isoTime(core.clock);
  const id = `eval-${randomUUID()}`;
  const run: StoredEvalRun = {
    id,
    name: `${file.run?.name ?? file.name} (baseline from ${file.name})`,
    dataset_id: datasetId,
    set_key: setKey(questions),
    request: { ...request, questions, provider: file.run ? file.run.provider : request.provider },
    variants: models.map((model) => ({ model: model! })),
    concurrency: 1,
    budget_usd: null,
    status: 'done',
    message: null,
    created_at: file.run?.created_at ?? now,
    finished_at: now,
    calibrations: null,
    baseline_id: null,
    estimate: null,
  };
  const results: FinishedResult[] = [];
  let missing = 0;
  let relabelled = 0;
  for (const l of file.lines) {
    const item = items.get(l.id);
    if (!item) {
      missing += 1;
      continue;
    }
    if (l.expected && Object.keys(item.expected).some((q) => q in l.expected! && JSON.stringify(l.expected![q]) !== JSON.stringify(item.expected[q])))
      relabelled += 1;
    const common = {
      variant: l.variant,
      position: item.position,
      input_tokens: l.usage.input_tokens,
      output_tokens: l.usage.output_tokens,
      cost: l.usage.cost,
      latency_ms: l.latency_ms,
      model_key: l.model,
      content_chars: 0,
      answered_at: now,
    };
    if (l.ok) {
      const answer = {
        ...common,
        answers: l.answers,
        raw_answers: l.raw_answers ?? null,
        methods: l.methods ?? null,
        attempts: l.attempts ?? null,
        provider: l.provider ?? null,
        error: null,
      };
      results.push({ answer });
    } else results.push({ failure: { ...common, error: l.error ?? 'failed', retryable: false } });
  }
  await core.evalRuns.addFinished(run, results);
  if (missing) notes.push(`${missing} of its results are of items not in this dataset: left out.`);
  if (relabelled) notes.push(`${relabelled} of its results had other expected answers than this dataset's: both runs are judged by this dataset's.`);
  return { baselineId: id, source: { source: 'file', file: file.name, notes } };
}
