import type { CaptureOutcome, StoredCapture, StoredCaptureRule } from '../captures/storage';

/** A capture rule's row as both backends keep it: lists and the condition as JSON text, the image flag as 0/1. */
export interface CaptureRuleRow {
  id: string;
  name: string;
  dataset_id: string;
  key_ids: string | null;
  question_set_id: string | null;
  question_signature: string | null;
  models: string | null;
  when_json: string | null;
  sample_rate: number;
  daily_cap: number;
  retention_days: number;
  keep_images: number;
  created_at: string;
}

export const CAPTURE_RULE_COLUMNS =
  'id, name, dataset_id, key_ids, question_set_id, question_signature, models, when_json, sample_rate, daily_cap, retention_days, keep_images, created_at';

const json = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));
const parsed = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));

export const captureRuleParams = (r: StoredCaptureRule): (string | number | null)[] => [
  r.id,
  r.name,
  r.dataset_id,
  json(r.key_ids),
  r.question_set_id,
  r.question_signature,
  json(r.models),
  json(r.when),
  r.sample_rate,
  r.daily_cap,
  r.retention_days,
  r.keep_images ? 1 : 0,
  r.created_at,
];

export const toCaptureRule = (r: CaptureRuleRow): StoredCaptureRule => ({
  id: r.id,
  name: r.name,
  dataset_id: r.dataset_id,
  key_ids: parsed<string[]>(r.key_ids),
  question_set_id: r.question_set_id,
  question_signature: r.question_signature,
  models: parsed<string[]>(r.models),
  when: parsed<unknown>(r.when_json),
  sample_rate: Number(r.sample_rate),
  daily_cap: Number(r.daily_cap),
  retention_days: Number(r.retention_days),
  keep_images: Number(r.keep_images) === 1,
  created_at: r.created_at,
});

/** A captured item's prediction row as both backends keep it. */
export interface CapturedRow {
  position: number;
  rule_id: string;
  request_id: string;
  key_id: string;
  model: string;
  provider: string | null;
  cost: number | null;
  captured_at: string;
  questions: string;
  answers: string;
  outcome: string | null;
}

export const CAPTURED_COLUMNS = 'position, rule_id, request_id, key_id, model, provider, cost, captured_at, questions, answers, outcome';
/** How many values `capturedParams` gives after the dataset id. */
export const CAPTURED_PARAMS = 12;

/** The row's values after its dataset, in `day, ${CAPTURED_COLUMNS}` order; the day is the UTC day of its time unless given. */
export const capturedParams = (c: Omit<StoredCapture, 'state'>, day = c.captured_at.slice(0, 10)): (string | number | null)[] => [
  day,
  c.position,
  c.rule_id,
  c.request_id,
  c.key_id,
  c.model,
  c.provider,
  c.cost,
  c.captured_at,
  JSON.stringify(c.questions),
  JSON.stringify(c.answers),
  json(c.outcome),
];

export const toCapture = (r: CapturedRow): StoredCapture => ({
  position: Number(r.position),
  rule_id: r.rule_id,
  request_id: r.request_id,
  key_id: r.key_id,
  model: r.model,
  provider: r.provider,
  cost: r.cost === null ? null : Number(r.cost),
  captured_at: r.captured_at,
  questions: JSON.parse(r.questions) as unknown,
  answers: JSON.parse(r.answers) as unknown,
  outcome: parsed<CaptureOutcome>(r.outcome),
});
