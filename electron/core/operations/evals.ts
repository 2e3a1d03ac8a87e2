import { HUMAN_STAGE } from '../decisions/stages';
import { Readable } from 'node:stream';
import type { Expected, RunEstimate } from '../../../shared/schemas/evaluation';
import type { Question } from '../../../shared/schemas/question';
import type { State } from '../../../shared/schemas/decisions-request';
import { actorOf, type Handlers } from './index';
import type { AuditLog } from '../audit/audit-log';
import type { AuditActor } from '../../../shared/schemas/audit';
import type { CascadePresets } from '../cascade-presets/cascade-presets';
import type { Catalog } from '../catalog/catalog';
import type { Datasets } from '../datasets/datasets';
import type { Calibrations } from '../evaluations/calibration/calibrations';
import type { EvalReports } from '../evaluations/reports/eval-reports';
import type { EvalResults } from '../evaluations/results/eval-results';
import type { EvalRunBook } from '../evaluations/runs/run-book';
import type { Runs } from '../runs/runs';
import { auditedCreate, auditedImport } from '../audit/audited';
import { checkExpected, type RawRow, type ValidRow } from '../datasets/dataset-rows';
import { lastRunOn } from '../datasets/dataset-fit';
import { setKey } from '../evaluations/calibration/calibrations';
import { imageFolderRowsFrom, readRows } from '../datasets/dataset-sources';
import { estimateRun, type EstimateDeps } from '../evaluations/estimate/estimate';
import { scoreLevel } from '../evaluations/reports/metrics';
import { resultsCsvHeader, resultsCsvRow, resultLine } from '../evaluations/reports/results-export';
import type { EVAL_OPERATIONS } from '../../../shared/contract/eval-operations';
import { addSamples, removeSamples, type SampleDeps } from '../samples/samples';
import { GatewayError } from '../errors';

type EvalOps = Pick<Handlers, keyof typeof EVAL_OPERATIONS>;

const collect = () => {
  let content = '';
  return { out: { write: (text: string) => ((content += text), true) }, text: () => content };
};

/** Expected answers read off a run's answers (noul at 0.5, choice, score level, box), each checked. */
function expectedFromAnswers(questions: Record<string, Question>, answers: Record<string, unknown>): Expected {
  const expected: Expected = {};
  for (const [name, q] of Object.entries(questions)) {
    const a = answers[name] as
      { type?: string; noul?: number; choice?: string; score?: number; probabilities?: Record<string, number>; box?: unknown } | undefined;
    if (!a || a.type !== q.type) continue;
    const value =
      a.type === 'noul'
        ? (a.noul ?? 0) >= 0.5
        : a.type === 'choice'
          ? a.choice
          : a.type === 'score'
            ? scoreLevel({ score: a.score ?? 0, probabilities: a.probabilities })
            : a.box;
    const checked = checkExpected(q, value);
    if ('value' in checked) expected[name] = checked.value;
  }
  return expected;
}

/** What the operations on datasets and evaluation runs use: the evaluations' parts, the estimate's and the samples' needs, presets and the audit log. */
export interface EvalDeps extends EstimateDeps, SampleDeps {
  readonly audit: AuditLog;
  readonly catalog: Catalog;
  readonly datasets: Datasets;
  readonly cascadePresets: CascadePresets;
  readonly runs: Runs;
  readonly evalRuns: EvalRunBook;
  readonly evalResults: EvalResults;
  readonly evalReports: EvalReports;
  readonly calibrations: Calibrations;
}

/** What the estimate says as a run starts, kept with it; null when it cannot say (the start then reports why, if the run cannot start either). */
async function startingEstimate(core: EvalDeps, input: Parameters<typeof estimateRun>[1]): Promise<RunEstimate | null> {
  try {
    const e = await estimateRun(core, input);
    return {
      expected_usd: e.cost_usd,
      low_usd: e.cost_low_usd,
      high_usd: e.cost_high_usd,
      worst_usd: e.worst_usd,
      input_tokens: e.input_tokens,
      output_tokens: e.output_tokens,
      variants: e.per_variant.map((v) => ({ expected_usd: v.cost_usd, fit: v.tokens_fit })),
    };
  } catch {
    return null;
  }
}

/** Datasets and evaluation runs. */
export function evalHandlers(core: EvalDeps): EvalOps {
  return { ...datasetHandlers(core), ...runHandlers(core), ...presetHandlers(core) };
}

/** A folder of images as a dataset, with their labels from a CSV or JSON Lines file; a label file with problems imports nothing and says where. */
async function importImages(
  core: EvalDeps,
  { name, images, labels, questions, valid_only, take_suggestions }: Parameters<EvalOps['datasets.importImages']>[0],
  actor: AuditActor,
) {
  const labelRows = new Map<string, RawRow>();
  const problems: RawRow[] = [];
  if (labels) {
    for await (const r of readRows(Readable.from([labels.content]), `labels.${labels.format}`, labels.format, { needsState: false })) {
      if (r.problem) problems.push(r);
      else labelRows.set(String(r.id), r);
    }
  }
  if (problems.length > 0)
    return {
      dataset: null,
      imported: 0,
      skipped: problems.length,
      problems: problems.map((p) => ({ file: p.file, row: p.row, field: p.problem!.field, message: p.problem!.message })),
    };
  const report = await core.datasets.import({
    name,
    rows: imageFolderRowsFrom(images, labelRows),
    questions: questions as Record<string, Question>,
    validOnly: valid_only,
    takeSuggestions: take_suggestions,
  });
  return auditedImport(core.audit, actor, report, { file: `${images.length} images` });
}

type OpsOf<Prefix extends string> = Pick<EvalOps, Extract<keyof EvalOps, `${Prefix}.${string}`>>;

/** Datasets: import (rows or images), items and their expected answers, export, fit to a set, from inspector runs. */
function datasetHandlers(core: EvalDeps): OpsOf<'datasets'> {
  return {
    'datasets.list': async () => core.datasets.list(),
    // Problems name the file the rows came from (`file`), which may differ from the dataset's name.
    'datasets.import': async ({ name, file, format, content, questions, valid_only, take_suggestions }, context) =>
      auditedImport(
        core.audit,
        actorOf(context, 'datasets.import'),
        await core.datasets.import({
          name,
          rows: readRows(Readable.from([content]), file ?? name, format),
          questions: questions as Record<string, Question>,
          validOnly: valid_only,
          takeSuggestions: take_suggestions,
        }),
        { file: file ?? name },
      ),
    'datasets.importImages': async (input, context) => importImages(core, input, actorOf(context, 'datasets.importImages')),
    'datasets.items': async ({ dataset_id, offset, limit, search }) => core.datasets.items(dataset_id, { offset, limit, search }),
    'datasets.updateExpected': async ({ dataset_id, position, expected, questions }, context) => {
      const actor = actorOf(context, 'datasets.updateExpected');
      const item = await core.datasets.updateExpected(dataset_id, position, expected, questions as Record<string, Question>);
      const dataset = await core.datasets.get(dataset_id);
      await core.audit.record(
        actor,
        'dataset.update',
        { kind: 'dataset', id: dataset.id, name: dataset.name },
        { item: item.id, position, questions: Object.keys(expected) },
      );
      return item;
    },
    'datasets.delete': async ({ id }, context) => {
      const actor = actorOf(context, 'datasets.delete');
      // Its runs go with it (the store cascades); stop any still sending first.
      for (const run of await core.evalRuns.list()) if (run.dataset_id === id) await core.evalRuns.cancel(run.id);
      const dataset = await core.datasets.get(id);
      const gone = await core.datasets.delete(id);
      await core.audit.record(actor, 'dataset.delete', { kind: 'dataset', id, name: dataset.name }, { items: dataset.items });
      return gone;
    },
    'datasets.export': async ({ id, format }) => {
      const sink = collect();
      await core.datasets.export(id, format, sink.out);
      return { content: sink.text() };
    },
    'datasets.fit': async ({ questions }) => {
      const key = setKey(questions);
      const runs = await core.evalRuns.list();
      return (await core.datasets.fitFor(Object.keys(questions))).map((fit) => ({ ...fit, last_run_at: lastRunOn(runs, { key, dataset: fit.dataset_id }) }));
    },
    'datasets.fromRuns': async ({ name, run_ids }, context) => {
      const actor = actorOf(context, 'datasets.fromRuns');
      const items: ValidRow[] = [];
      for (const id of run_ids) {
        const run = await core.runs.get(id);
        const request = run.request as { state: State; questions: Record<string, Question> } | null;
        const response = run.response as { answers: Record<string, unknown> } | null;
        if (!request || !response) continue;
        items.push({ id: run.id, state: request.state, expected: expectedFromAnswers(request.questions, response.answers) });
      }
      return auditedCreate(core.audit, actor, await core.datasets.create(name, items), `${run_ids.length} runs`);
    },
  };
}

/** Evaluation runs: estimate, start and steer, and what they found (reports, results, calibration, comparison, cascades). */
function runHandlers(core: EvalDeps): OpsOf<'evals'> {
  return {
    'evals.estimate': async (input) => estimateRun(core, input),
    'evals.start': async (input) => core.evalRuns.start({ ...input, estimate: await startingEstimate(core, input) }),
    'evals.list': async () => core.evalRuns.list(),
    'evals.get': async ({ id }) => core.evalRuns.get(id),
    'evals.pause': async ({ id }) => core.evalRuns.pause(id),
    'evals.resume': async ({ id, budget_usd }) => core.evalRuns.resume(id, budget_usd),
    'evals.cancel': async ({ id }) => core.evalRuns.cancel(id),
    'evals.delete': async ({ id }) => core.evalRuns.delete(id),
    'evals.report': async ({ id }) => core.evalReports.report(id, { detail: true }),
    'evals.results': async ({ id, offset, limit, filter, question, below }) => core.evalResults.matrix(id, { offset, limit, filter, question, below }),
    'evals.distributions': async ({ id }) => core.evalResults.distributions(id),
    'evals.item': async ({ id, position }) => core.evalResults.item(id, position),
    'evals.export': async ({ id, format }) => {
      const questions = await core.evalResults.questions(id);
      let content = format === 'csv' ? resultsCsvHeader(Object.keys(questions)) : '';
      for await (const { item, result } of core.evalResults.rows(id))
        content += format === 'csv' ? resultsCsvRow(questions, item, result) : resultLine(item, result);
      return { content };
    },
    'evals.fitCalibration': async ({ id, variant, question }) => ({ calibration: await core.calibrations.fitCalibration(id, variant, question) }),
    'evals.saveCalibration': async ({ id, variant, question, temperature }) =>
      core.calibrations.saveCalibration({ run_id: id, variant, question, temperature }),
    'evals.calibrations': async () => core.calibrations.calibrations(),
    'evals.setBaseline': async ({ id, baseline_id }) => core.evalRuns.setBaseline(id, baseline_id),
    'evals.compare': async ({ id, baseline_id }) => core.evalReports.compare(id, baseline_id),
    'evals.cascadeCurve': async ({ id, first_variant, second_variant, question, family }) =>
      core.evalReports.cascadeCurve(id, { first_variant, second_variant, question, family }),
  };
}

/** Cascade presets (their changes in the audit log) and the sample datasets. */
function presetHandlers(core: EvalDeps): OpsOf<'cascadePresets' | 'samples'> {
  return {
    'cascadePresets.list': async () => core.cascadePresets.list(),
    'cascadePresets.save': async (input, context) => {
      const actor = actorOf(context, 'cascadePresets.save');
      for (const [field, model] of [
        ['model', input.model],
        ['first_model', input.first_model],
      ] as const)
        if (model && !(field === 'model' && model === HUMAN_STAGE) && !core.catalog.hasModel(model))
          throw new GatewayError('bad_request', `${field}: no model "${model}" in the catalog`);
      const { preset, created, previous } = await core.cascadePresets.save(input);
      // Adopting a new threshold names the point it leaves and the one it takes (each from its run's curve, when it came from one).
      await core.audit.record(
        actor,
        'cascade_preset.save',
        { kind: 'cascade_preset', id: preset.name, name: preset.name },
        {
          created,
          model: preset.model,
          first_model: preset.first_model,
          when: preset.when,
          ...(preset.source ? { point: preset.source } : {}),
          ...(previous ? { before: { model: previous.model, when: previous.when, point: previous.source } } : {}),
        },
      );
      return preset;
    },
    'cascadePresets.delete': async ({ name }, context) => {
      const actor = actorOf(context, 'cascadePresets.delete');
      const preset = await core.cascadePresets.delete(name);
      await core.audit.record(actor, 'cascade_preset.delete', { kind: 'cascade_preset', id: name, name }, { model: preset.model, when: preset.when });
      return preset;
    },
    'samples.add': async () => addSamples(core),
    'samples.remove': async () => removeSamples(core),
  };
}
