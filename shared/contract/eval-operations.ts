import { z } from 'zod';
import { DecisionsRequestSchema } from '../schemas/decisions-request';
import { ImageDataUrlSchema } from '../schemas/inspector';
import {
  CalibrationSummarySchema,
  DatasetFitSchema,
  DatasetItemSchema,
  DatasetSummarySchema,
  EvalEstimateSchema,
  EvalReportSchema,
  EvalResultRowSchema,
  EvalRunSchema,
  EvalVariantSchema,
  ExpectedSchema,
  ImportReportSchema,
  RunComparisonSchema,
  SavedCalibrationSchema,
} from '../schemas/evaluation';
import { QuestionSetSummarySchema } from '../schemas/inspector';
import { CascadeCurveSchema, CascadeFamilySchema } from '../schemas/cascade-curve';
import { CascadePresetInputSchema, CascadePresetNameSchema, CascadePresetSchema } from '../schemas/cascade-preset';

/** Requests an evaluation run keeps in flight unless told otherwise. */
export const DEFAULT_CONCURRENCY = 4;

type Kind = 'query' | 'mutation';
const op = <I extends z.ZodType, O extends z.ZodType>(kind: Kind, summary: string, input: I, output: O) => ({ kind, summary, input, output });

const byId = z.object({ id: z.string() }).strict();
const questions = DecisionsRequestSchema.shape.questions;
const format = z.enum(['csv', 'jsonl', 'json']);
/** Where a page starts and how long it is (at most 1000), `limit` when not asked. */
const paging = (limit: number) => ({ offset: z.number().int().min(0).default(0), limit: z.number().int().min(1).max(1000).default(limit) });
/** An export of one dataset or run as CSV or JSONL text, by its id. */
const exportAsText = (summary: string) =>
  op('query', summary, z.object({ id: z.string(), format: z.enum(['csv', 'jsonl']) }).strict(), z.object({ content: z.string() }));
/** What every import checks its rows against (the questions), whether it keeps only the valid ones, and whether it takes suggestions. */
const importChecks = {
  questions,
  valid_only: z.boolean().default(false),
  /** read each expected answer that has a suggestion ("Billing" for billing, "no" for false) as suggested */
  take_suggestions: z.boolean().default(false),
};
const runInput = z
  .object({
    request: DecisionsRequestSchema,
    dataset_id: z.string(),
    variants: z.array(EvalVariantSchema).min(1, 'name at least one model').max(16),
  })
  .strict();
const resultView = z.object({
  model: z.string(),
  variant: z.number().int(),
  ok: z.boolean(),
  answers: z.record(z.string(), z.unknown()),
  raw_answers: z.record(z.string(), z.unknown()).nullable(),
  methods: z.record(z.string(), z.string()).nullable(),
  attempts: z.array(z.unknown()).nullable(),
  provider: z.string().nullable(),
  usage: z.object({ input_tokens: z.number(), output_tokens: z.number(), cost: z.number().nullable() }),
  latency_ms: z.number(),
  error: z.string().nullable(),
});

/** Datasets and evaluation runs (issue 12); spread into the operation table. */
export const EVAL_OPERATIONS = {
  'datasets.list': op('query', 'Labelled datasets', z.object({}).strict(), z.array(DatasetSummarySchema)),
  'datasets.import': op(
    'mutation',
    'Import a dataset file checked against a question set: nothing is kept when a row is wrong, unless valid_only',
    z
      .object({
        name: z.string().trim().min(1).max(200),
        file: z.string().max(300).optional(),
        format,
        content: z.string(),
        ...importChecks,
      })
      .strict(),
    ImportReportSchema,
  ),
  'datasets.importImages': op(
    'mutation',
    'Import images as items, with expected answers from an optional labels file (CSV or JSONL by file name)',
    z
      .object({
        name: z.string().trim().min(1).max(200),
        images: z.array(z.object({ name: z.string().min(1).max(300), data_url: ImageDataUrlSchema }).strict()).min(1),
        labels: z
          .object({ format: z.enum(['csv', 'jsonl']), content: z.string() })
          .strict()
          .optional(),
        ...importChecks,
      })
      .strict(),
    ImportReportSchema,
  ),
  'datasets.items': op(
    'query',
    'One page of a dataset in order',
    z
      .object({
        dataset_id: z.string(),
        ...paging(100),
        search: z.string().max(200).optional(),
      })
      .strict(),
    z.object({ total: z.number().int(), items: z.array(DatasetItemSchema) }),
  ),
  'datasets.updateExpected': op(
    'mutation',
    "Replace one item's expected answers (checked against the questions)",
    z.object({ dataset_id: z.string(), position: z.number().int().min(0), expected: ExpectedSchema, questions }).strict(),
    DatasetItemSchema,
  ),
  'datasets.delete': op('mutation', 'Delete a dataset and its evaluation runs', byId, byId),
  'datasets.export': exportAsText('A dataset as CSV or JSONL text'),
  'datasets.fit': op(
    'query',
    'How each dataset suits a question set: items labelled for its questions, images or not, and when the set last ran on it',
    z.object({ questions }).strict(),
    z.array(DatasetFitSchema),
  ),
  'datasets.fromRuns': op(
    'mutation',
    "Save runs as a dataset: each run's state, its answers as the expected answers",
    z.object({ name: z.string().trim().min(1).max(200), run_ids: z.array(z.string()).min(1).max(10_000) }).strict(),
    DatasetSummarySchema,
  ),
  'evals.estimate': op(
    'query',
    'Calls, tokens and cost of a run before it starts (an estimate)',
    // As many requests in flight as the run will send: how fast they go decides how long a fault moves traffic for.
    runInput.extend({ concurrency: z.number().int().min(1).max(64).optional() }),
    EvalEstimateSchema,
  ),
  'evals.start': op(
    'mutation',
    'Start an evaluation run in the background',
    runInput.extend({
      name: z.string().max(200).optional(),
      concurrency: z.number().int().min(1).max(64).default(DEFAULT_CONCURRENCY),
      budget_usd: z.number().positive().nullable().optional(),
    }),
    EvalRunSchema,
  ),
  'evals.list': op('query', 'Evaluation runs, newest first', z.object({}).strict(), z.array(EvalRunSchema)),
  'evals.get': op('query', 'One evaluation run with its progress', byId, EvalRunSchema),
  'evals.pause': op('mutation', 'Pause a run (items in flight finish and are stored)', byId, EvalRunSchema),
  'evals.resume': op(
    'mutation',
    'Resume a paused run, or one stopped by its budget (optionally with a new budget)',
    z.object({ id: z.string(), budget_usd: z.number().positive().nullable().optional() }).strict(),
    EvalRunSchema,
  ),
  'evals.cancel': op('mutation', 'Stop a run for good', byId, EvalRunSchema),
  'evals.delete': op('mutation', 'Delete a run and its results', byId, byId),
  'evals.report': op('query', 'Metrics per model and question (the report)', byId, EvalReportSchema),
  'evals.results': op(
    'query',
    'A page of the results matrix: items × models, filtered',
    z
      .object({
        id: z.string(),
        ...paging(200),
        filter: z.enum(['all', 'wrong', 'disagree', 'low']).default('all'),
        question: z.string().optional(),
        below: z.number().min(0).max(1).default(0.7),
      })
      .strict(),
    z.object({ total: z.number().int(), rows: z.array(EvalResultRowSchema) }),
  ),
  'evals.distributions': op(
    'query',
    'Score errors and box IoUs in buckets, per question and model (for charts)',
    byId,
    z.array(
      z.object({
        question: z.string(),
        type: z.enum(['score', 'box']),
        model: z.string(),
        buckets: z.array(z.object({ at: z.number(), count: z.number().int() })),
      }),
    ),
  ),
  'evals.item': op(
    'query',
    'One item: its state, expected answers and every full result',
    z.object({ id: z.string(), position: z.number().int().min(0) }).strict(),
    z.object({ item: DatasetItemSchema, results: z.array(resultView) }),
  ),
  'evals.export': exportAsText('Results as CSV or JSONL text, one row per item × model'),
  'evals.fitCalibration': op(
    'mutation',
    'Fit a temperature on even positions and report before and after on odd positions',
    z.object({ id: z.string(), variant: z.number().int().min(0), question: z.string() }).strict(),
    z.object({ calibration: CalibrationSummarySchema.nullable() }),
  ),
  'evals.saveCalibration': op(
    'mutation',
    'Apply a temperature to later runs of this set on this model',
    z.object({ id: z.string(), variant: z.number().int().min(0), question: z.string(), temperature: z.number().min(0.01).max(100) }).strict(),
    SavedCalibrationSchema,
  ),
  'evals.calibrations': op('query', 'Saved calibrations', z.object({}).strict(), z.array(SavedCalibrationSchema)),
  'evals.setBaseline': op(
    'mutation',
    'Compare a run with an earlier run over the same dataset (its baseline); null clears it',
    z.object({ id: z.string(), baseline_id: z.string().nullable() }).strict(),
    EvalRunSchema,
  ),
  'evals.compare': op(
    'query',
    'A run against a baseline run over the same dataset: metric deltas with paired intervals, changed answers first, both runs’ questions side by side',
    z.object({ id: z.string(), baseline_id: z.string() }).strict(),
    RunComparisonSchema,
  ),
  'evals.cascadeCurve': op(
    'query',
    'A cascade between two models of a run, computed from their answers without sending a request: accuracy, cost per item, share escalated and latency at every threshold of a condition (question: the one it reads; else family: every question of its kinds)',
    z
      .object({
        id: z.string(),
        first_variant: z.number().int().min(0),
        second_variant: z.number().int().min(0),
        question: z.string().min(1).max(256).optional(),
        family: CascadeFamilySchema.optional(),
      })
      .strict(),
    CascadeCurveSchema,
  ),
  'cascadePresets.list': op('query', 'Saved cascade presets (a second model and when to ask it), by name', z.object({}).strict(), z.array(CascadePresetSchema)),
  'cascadePresets.save': op(
    'mutation',
    'Save a cascade preset under its name (replacing one of that name): usable by name in requests and question sets',
    CascadePresetInputSchema,
    CascadePresetSchema,
  ),
  'cascadePresets.delete': op('mutation', 'Delete a cascade preset', z.object({ name: CascadePresetNameSchema }).strict(), CascadePresetSchema),
  'samples.add': op(
    'mutation',
    'Add the sample question set and its labelled dataset (marked as samples; again returns those there)',
    z.object({}).strict(),
    z.object({ set: QuestionSetSummarySchema, dataset: DatasetSummarySchema }),
  ),
  'samples.remove': op(
    'mutation',
    'Remove the sample set and dataset, with the evaluation runs made on it',
    z.object({}).strict(),
    z.object({ sets: z.number().int(), datasets: z.number().int() }),
  ),
} as const;
