import { z } from 'zod';
import { CascadeConditionSchema, type CascadeCondition } from './cascade';

/** The most rules a gateway keeps: every public request is held against each. */
export const MAX_CAPTURE_RULES = 50;
/** The request header that keeps a request out of every capture. */
export const CAPTURE_HEADER = 'x-verdict-capture';

const ids = (what: string) =>
  z
    .array(z.string().min(1, `${what} must not be empty`).max(256, `${what} of at most 256 characters`))
    .min(1, `at least 1 ${what} (leave the field out to match any)`)
    .max(100, `at most 100 ${what}s`);

/**
 * A capture rule as it is asked for (`POST /api/v1/captures`, the inspector's Captures panel). A
 * rule picks live Decisions requests (every public route): by key, by saved question set (a request
 * matches when its questions are the set's: the same names, kinds, instructions and criteria), by
 * model, and by a condition in the cascade grammar on the answers; each field left out matches any.
 * Matching requests are sampled at `sample_rate`, at most `daily_cap` a UTC day, and become items
 * of the rule's dataset (a new one named after the rule unless `dataset_id` names one), kept
 * `retention_days` days. Images are replaced by a marker unless `keep_images`.
 */
export const CaptureRuleInputSchema = z.strictObject({
  name: z.string().trim().min(1, 'a rule needs a name').max(100, 'a rule name of at most 100 characters'),
  dataset_id: z.string().min(1).optional(),
  key_ids: ids('key id').optional(),
  question_set_id: z.string().min(1).optional(),
  models: ids('model id').optional(),
  when: CascadeConditionSchema.optional(),
  sample_rate: z.number().gt(0, 'sample_rate must be above 0').max(1, 'sample_rate must be at most 1').default(1),
  daily_cap: z
    .number()
    .int('daily_cap: a whole number')
    .min(1, 'daily_cap must be at least 1')
    .max(1_000_000, 'daily_cap must be at most 1,000,000')
    .default(1000),
  retention_days: z
    .number()
    .int('retention_days: a whole number')
    .min(1, 'retention_days must be at least 1')
    .max(3650, 'retention_days must be at most 3650')
    .default(30),
  keep_images: z.boolean().default(false),
});
export type CaptureRuleInput = z.input<typeof CaptureRuleInputSchema>;
export type ParsedCaptureRuleInput = z.output<typeof CaptureRuleInputSchema>;

/** A capture rule as listed: what it matches, where its items go, and how many it took. */
export const CaptureRuleSchema = z.object({
  id: z.string(),
  name: z.string(),
  dataset_id: z.string(),
  dataset_name: z.string(),
  key_ids: z.array(z.string()).nullable(),
  question_set_id: z.string().nullable(),
  /** the set's questions' signature the rule matches on, taken when the rule was made */
  question_signature: z.string().nullable(),
  models: z.array(z.string()).nullable(),
  when: CascadeConditionSchema.nullable(),
  sample_rate: z.number(),
  daily_cap: z.number().int(),
  retention_days: z.number().int(),
  keep_images: z.boolean(),
  created_at: z.string(),
  /** items captured this UTC day, and in all (still kept) */
  captured_today: z.number().int(),
  captured_total: z.number().int(),
});
export type CaptureRule = Omit<z.infer<typeof CaptureRuleSchema>, 'when'> & { when: CascadeCondition | null };

/** One captured request's answers as predictions (never labels), with what answered them and what it cost. */
export const CapturedPredictionSchema = z.object({
  position: z.number().int(),
  rule_id: z.string(),
  request_id: z.string(),
  key_id: z.string(),
  model: z.string(),
  provider: z.string().nullable(),
  cost: z.number().nullable(),
  captured_at: z.string(),
  questions: z.record(z.string(), z.unknown()),
  answers: z.record(z.string(), z.unknown()),
  /** how the request went (latency, escalated, provisional, declined questions); null for captures made before it was kept */
  outcome: z.object({ latency_ms: z.number(), escalated: z.boolean(), provisional: z.boolean(), refused: z.array(z.string()) }).nullable(),
});
export type CapturedPrediction = z.infer<typeof CapturedPredictionSchema>;

export const MonitorWindowSchema = z.enum(['1h', '24h', '7d']);
export type MonitorWindow = z.infer<typeof MonitorWindowSchema>;

/**
 * Live answers over a window (the last hour, day or week) beside a reference window (by default the
 * week before it; or the one the analyst picks), each question's drift and alert: of one capture
 * rule, or of a saved question set (every rule that names it, each request counted once).
 */
export const CaptureMonitorInputSchema = z
  .strictObject({
    rule_id: z.string().min(1).optional(),
    question_set_id: z.string().min(1).optional(),
    window: MonitorWindowSchema.default('24h'),
    reference_from: z.iso.datetime({ offset: true }).optional(),
    reference_to: z.iso.datetime({ offset: true }).optional(),
  })
  .refine((i) => (i.rule_id === undefined) !== (i.question_set_id === undefined), {
    message: 'name either rule_id or question_set_id, not both',
    path: ['rule_id'],
  });

export type CaptureMonitorInput = z.infer<typeof CaptureMonitorInputSchema>;

const QuestionFiguresSchema = z.object({
  question: z.string(),
  kind: z.enum(['noul', 'choice', 'score', 'box']),
  n: z.number().int(),
  shares: z.record(z.string(), z.number()),
  mean_confidence: z.number().nullable(),
  box: z.object({ area: z.number(), x: z.number(), y: z.number() }).nullable(),
});

/** Answers checked against the expected answers people gave to captured items: how many, how many right, the share with its 95% Wilson interval. */
const LiveAccuracySchema = z.object({
  reviewed: z.number().int(),
  correct: z.number().int(),
  accuracy: z.number(),
  interval: z.object({ low: z.number(), high: z.number() }).nullable(),
});
export type LiveAccuracy = z.infer<typeof LiveAccuracySchema>;

/** A share of the window's requests, of those whose outcome was kept (null when none was). */
const share = z.number().nullable();

export const CaptureMonitorSchema = z.object({
  subject: z.object({ kind: z.enum(['rule', 'set']), id: z.string(), name: z.string() }),
  /** the rules whose captures are read */
  rule_ids: z.array(z.string()),
  /** items in the rules' datasets that no person has given an expected answer yet (the set's review queue) */
  waiting_review: z.number().int(),
  window: z.object({
    from: z.string(),
    to: z.string(),
    requests: z.number().int(),
    cost_per_request: z.number().nullable(),
    /** requests whose latency, stages and declined questions were kept (captures made before that have none) */
    with_outcome: z.number().int(),
    latency_p50_ms: z.number().nullable(),
    latency_p95_ms: z.number().nullable(),
    escalated_share: share,
    provisional_share: share,
    /** requests in which the model declined at least one question */
    refused_share: share,
  }),
  reference: z.object({ from: z.string(), to: z.string(), requests: z.number().int() }),
  /** at most this many of each window's newest captures are read */
  limit: z.number().int(),
  /** over the window's captured items that people have reviewed; null when none has been */
  accuracy: LiveAccuracySchema.nullable(),
  questions: z.array(
    QuestionFiguresSchema.extend({
      reference: QuestionFiguresSchema.nullable(),
      drift: z.number().nullable(),
      alert: z.boolean(),
      accuracy: LiveAccuracySchema.nullable(),
    }),
  ),
});
export type CaptureMonitor = z.infer<typeof CaptureMonitorSchema>;
