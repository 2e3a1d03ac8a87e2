import { z } from 'zod';
import { CascadeSchema } from './cascade';
import { ProviderPreferencesSchema } from './provider-preferences';

/** An expected box: fractions of the image, origin top-left. */
export const ExpectedBoxSchema = z.strictObject({ top: z.number(), bottom: z.number(), left: z.number(), right: z.number() });
/** Expected answers by question name: noul boolean, choice option name, score level index, box. */
export const ExpectedSchema = z.record(z.string(), z.union([z.boolean(), z.string(), z.number(), ExpectedBoxSchema]));
export type Expected = z.infer<typeof ExpectedSchema>;

export const DatasetSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  items: z.number().int(),
  labelled: z.record(z.string(), z.number().int()),
  created_at: z.string(),
  /** the sample offered on first start */
  sample: z.boolean(),
});
export type DatasetSummary = z.infer<typeof DatasetSummarySchema>;

/** How a dataset suits one question set: whether a run of the set over it can be judged, and whether its items are what the set asks about. */
export const DatasetFitSchema = z.object({
  dataset_id: z.string(),
  /** items with an expected answer to at least one of the set's questions */
  labelled_items: z.number().int(),
  /** its items are images (its first item holds one) */
  images: z.boolean(),
  /** when a run of the set (its questions, whatever the set is called) last started on the dataset; null when none did */
  last_run_at: z.string().nullable(),
});
export type DatasetFit = z.infer<typeof DatasetFitSchema>;

export const DatasetItemSchema = z.object({
  position: z.number().int(),
  id: z.string(),
  state: z.unknown(),
  expected: ExpectedSchema,
});
export type DatasetItem = z.infer<typeof DatasetItemSchema>;

export const ImportProblemSchema = z.object({
  file: z.string(),
  row: z.number().int(),
  field: z.string(),
  message: z.string(),
  /** what the cell most likely meant, which an import with take_suggestions reads it as */
  suggestion: z.union([z.boolean(), z.string()]).optional(),
});
export type ImportProblem = z.infer<typeof ImportProblemSchema>;

export const ImportReportSchema = z.object({
  dataset: DatasetSummarySchema.nullable(),
  imported: z.number().int(),
  skipped: z.number().int(),
  problems: z.array(ImportProblemSchema),
  /** expected answers read as suggested (an import with take_suggestions) */
  taken: z.number().int().optional(),
});
export type ImportReport = z.infer<typeof ImportReportSchema>;

/** One model, or one model under one set of provider preferences. */
export const EvalVariantSchema = z.strictObject({
  model: z.string().min(1),
  label: z.string().max(200).optional(),
  provider: ProviderPreferencesSchema.optional(),
  /** A cascade: the variant's model first, this model asked again when the condition holds (docs/API.md, Cascades). */
  cascade: CascadeSchema.optional(),
});
export type EvalVariant = z.infer<typeof EvalVariantSchema>;

const TokenFitSchema = z.object({ fixed: z.number(), per_char: z.number() });

export const EvalEstimateSchema = z.object({
  calls: z.number().int(),
  items: z.number().int(),
  estimated: z.literal(true),
  /** items whose requests were priced one by one (spread over the dataset); the rest are taken as alike */
  sampled: z.number().int(),
  per_variant: z.array(
    z.object({
      variant: z.string(),
      input_tokens: z.number().int(),
      output_tokens: z.number().int(),
      /** the expected cost (USD): requests as built, at the prices of the endpoints routing picks, as often as it picks them; null when not known, and why in `cost_note` */
      cost_usd: z.number().nullable(),
      cost_note: z.string().nullable(),
      /** the likely range of the cost (USD, 2.5th to 97.5th percentile of the run walked through routing with its endpoints' fault rates); null with cost_usd */
      cost_low_usd: z.number().nullable(),
      cost_high_usd: z.number().nullable(),
      /** the request rate the expectation assumed, and how it was read */
      cost_rate: z.string(),
      /** the worst case of the whole run for this model: one request's worst case times its requests */
      worst_usd: z.number().nullable(),
      /**
       * The worst case of one request (USD) on `worst_request_item`: what a budget holds for it before
       * sending it (every endpoint of its route tried, the longest replies). null when not known, and why in `worst_request_note`.
       */
      worst_request_usd: z.number().nullable(),
      worst_request_note: z.string().nullable(),
      /** one request's estimated tokens as a line in the characters of its item's state (JSON), fitted over the sampled items: a run refines its expectation with it */
      tokens_fit: TokenFitSchema,
    }),
  ),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  /** the expected cost of the run; null when a price is unknown */
  cost_usd: z.number().nullable(),
  /** its likely range (2.5th to 97.5th percentile): one run's cost varies, as a fault sends a model's traffic to its fallbacks for 30 s */
  cost_low_usd: z.number().nullable(),
  cost_high_usd: z.number().nullable(),
  /** the most the run can cost; null when a price is unknown */
  worst_usd: z.number().nullable(),
  /** id of the item the highest worst case is for (of the dataset's longest states); null for an empty dataset */
  worst_request_item: z.string().nullable(),
  /**
   * The smallest budget with which every variant's request can be admitted: the largest worst case
   * of one request, rounded up to three significant digits. A budget below it stops the run at such
   * a request, before sending it (and sends nothing when that request comes first). null when a worst case is unknown.
   */
  min_budget_usd: z.number().nullable(),
});
export type EvalEstimate = z.infer<typeof EvalEstimateSchema>;

/** The estimate a run started with: its expected cost and its worst case, each labelled as such on screen. */
export const RunEstimateSchema = z.object({
  expected_usd: z.number().nullable(),
  /** the expected cost's likely range as estimated; absent for runs from before */
  low_usd: z.number().nullable().optional(),
  high_usd: z.number().nullable().optional(),
  worst_usd: z.number().nullable(),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  /** per model (in the run's order): its expected cost and its tokens fitted to its items' lengths; absent for runs from before */
  variants: z.array(z.object({ expected_usd: z.number().nullable(), fit: TokenFitSchema })).optional(),
});
export type RunEstimate = z.infer<typeof RunEstimateSchema>;

export const EvalRunStatusSchema = z.enum(['running', 'paused', 'done', 'cancelled', 'budget', 'failed']);
export type EvalRunStatus = z.infer<typeof EvalRunStatusSchema>;

export const EvalRunSchema = z.object({
  id: z.string(),
  name: z.string(),
  dataset_id: z.string(),
  set_key: z.string(),
  /** `cascade`: the variant's second stage and when it is asked, for a cascade variant (absent from views made before runs had them) */
  variants: z.array(z.object({ name: z.string(), model: z.string(), label: z.string().nullable(), cascade: CascadeSchema.nullable().optional() })),
  status: EvalRunStatusSchema,
  concurrency: z.number().int(),
  budget_usd: z.number().nullable(),
  total: z.number().int(),
  done: z.number().int(),
  failed: z.number().int(),
  /** failed items that resuming would send again (see MAX_ITEM_TRIES) */
  retryable: z.number().int(),
  spent_usd: z.number(),
  eta_ms: z.number().nullable(),
  /** items whose request is out (sent, or waiting out a Retry-After); a paused run's last answers are still to come while it is above 0 */
  in_flight: z.number().int(),
  /** ms left before requests are sent again, after a provider answered 429 with Retry-After; null when not waiting */
  waiting_ms: z.number().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  message: z.string().nullable(),
  /**
   * The saved calibrations this run applies (fixed when it started): per model, by its place in
   * `variants`, and question, the temperature its answers are divided by. null for runs started
   * before runs recorded them.
   */
  calibrations: z.array(z.object({ variant: z.number().int(), question: z.string(), temperature: z.number() })).nullable(),
  /** what the run asked: its questions (instructions and criteria) and provider preferences, as stored when it started */
  questions: z.record(z.string(), z.unknown()),
  provider: z.unknown().nullable(),
  /** the earlier run over the same dataset this one is compared with; null when none is set */
  baseline_id: z.string().nullable(),
  /** what the estimate said when the run started (null for runs from before runs kept it) */
  estimate: RunEstimateSchema.nullable(),
  /**
   * The expected cost of the whole run refined from what its answered items cost (their measured
   * tokens at the prices paid): null until a few items are in, or when a cost is unknown.
   */
  expected_usd: z.number().nullable(),
  /** answered items the refined expectation stands on */
  expected_from: z.number().int(),
});
export type EvalRun = z.infer<typeof EvalRunSchema>;

export const ReliabilityBinSchema = z.object({ lower: z.number(), upper: z.number(), count: z.number().int(), confidence: z.number(), accuracy: z.number() });
export type ReliabilityBin = z.infer<typeof ReliabilityBinSchema>;

/** The largest temperature a fit tries: a fit that ends there found the probabilities carry next to nothing. */
export const MAX_TEMPERATURE = 20;

export const CalibrationSummarySchema = z.object({
  temperature: z.number(),
  ece_before: z.number().nullable(),
  ece_after: z.number().nullable(),
  log_loss_before: z.number().nullable(),
  log_loss_after: z.number().nullable(),
});
export type CalibrationSummary = z.infer<typeof CalibrationSummarySchema>;

export const IntervalSchema = z.object({ low: z.number(), high: z.number() });

/** Counts of a yes/no question's answers at one threshold (an answer says true when P(true) ≥ it). */
export const CurvePointSchema = z.object({ threshold: z.number(), tp: z.number().int(), fp: z.number().int(), fn: z.number().int(), tn: z.number().int() });

/** What always giving the most common expected answer scores (accuracy, or exact level for scores). */
export const BaselineSchema = z.object({ label: z.string(), answer: z.string(), accuracy: z.number(), interval: IntervalSchema.nullable() });

/**
 * Per question: `type`, `n`, the metrics of its type, their 95% `intervals` (by metric name), the
 * majority-class `baseline`, for yes/no questions the counts at every threshold (`curve`), and `calibration`.
 */
export const QuestionMetricsSchema = z.looseObject({
  type: z.string(),
  n: z.number().int(),
  calibration: CalibrationSummarySchema.nullable(),
  intervals: z.record(z.string(), IntervalSchema.nullable()).optional(),
  baseline: BaselineSchema.nullable().optional(),
  curve: z.array(CurvePointSchema).optional(),
});
export type QuestionMetrics = z.infer<typeof QuestionMetricsSchema>;

export const ModelReportSchema = z.object({
  model: z.string(),
  items: z.number().int(),
  failed: z.number().int(),
  cost_usd: z.number(),
  cost_unknown: z.number().int(),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  latency_ms: z.object({ p50: z.number().nullable(), p95: z.number().nullable() }),
  questions: z.record(z.string(), QuestionMetricsSchema),
});
export type ModelReport = z.infer<typeof ModelReportSchema>;

export const EvalReportSchema = z.object({
  dataset: z.object({ items: z.number().int() }),
  /** how the intervals were made (the detailed report, as the screen reads it) */
  interval_method: z.string().optional(),
  /** below this many judged items a metric is provisional (the detailed report) */
  min_final_n: z.number().int().optional(),
  models: z.array(ModelReportSchema),
});
export type EvalReport = z.infer<typeof EvalReportSchema>;

/** One row of the results matrix: an item with each variant's answers. */
export const EvalResultRowSchema = z.object({
  position: z.number().int(),
  id: z.string(),
  /** a few words of the item's content, to tell it by */
  text: z.string(),
  expected: ExpectedSchema,
  cells: z.array(
    z.object({
      variant: z.string(),
      ok: z.boolean(),
      answers: z.record(z.string(), z.unknown()),
      correct: z.record(z.string(), z.boolean().nullable()),
      confidence: z.record(z.string(), z.number().nullable()),
      error: z.string().nullable(),
    }),
  ),
});
export type EvalResultRow = z.infer<typeof EvalResultRowSchema>;

/** One run against its baseline (an earlier run over the same dataset). */
export const RunComparisonSchema = z.object({
  /** the two runs, their models, and the questions and provider preferences each sent, side by side */
  runs: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      created_at: z.string(),
      models: z.array(z.string()),
      questions: z.record(z.string(), z.unknown()),
      provider: z.unknown().nullable(),
      spent_usd: z.number(),
    }),
  ),
  /** how the delta intervals were made */
  interval_method: z.string(),
  /** each model of the run beside the model of the baseline it is compared with (the same name, else the same place) */
  pairs: z.array(
    z.object({
      model: z.string(),
      baseline_model: z.string(),
      questions: z.record(
        z.string(),
        z.object({
          /** items with an expected answer that both runs answered */
          n: z.number().int(),
          metrics: z.array(
            z.object({
              metric: z.string(),
              run: z.number().nullable(),
              baseline: z.number().nullable(),
              delta: z.number().nullable(),
              interval: IntervalSchema.nullable(),
              higher_is_better: z.boolean(),
            }),
          ),
        }),
      ),
    }),
  ),
  /** questions asked by only one of the runs, or as another kind: not compared */
  not_compared: z.array(z.string()),
  /** answers that changed, worse first, then better, then changed with neither right */
  changed: z.array(
    z.object({
      position: z.number().int(),
      id: z.string(),
      text: z.string(),
      question: z.string(),
      model: z.string(),
      expected: z.unknown(),
      baseline_answer: z.string(),
      run_answer: z.string(),
      change: z.enum(['worse', 'better', 'changed']),
    }),
  ),
  /** changed answers in all (the list holds the first 500) */
  changed_total: z.number().int(),
  /** changed answers in all by kind: worse, better, and changed with neither right */
  changed_counts: z.object({ worse: z.number().int(), better: z.number().int(), changed: z.number().int() }).optional(),
});
export type RunComparison = z.infer<typeof RunComparisonSchema>;

export const SavedCalibrationSchema = z.object({
  set_key: z.string(),
  model: z.string(),
  question: z.string(),
  temperature: z.number(),
  created_at: z.string(),
});
export type SavedCalibration = z.infer<typeof SavedCalibrationSchema>;
