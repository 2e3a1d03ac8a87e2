import type { Answer } from '../../../shared/schemas/answer';
import type { CascadeCondition } from '../../../shared/schemas/cascade';
import type { Question } from '../../../shared/schemas/question';
import { evaluateCondition } from '../../../shared/cascade/conditions';
import type { StoredCaptureRule } from './storage';

/** A rule as the request path holds it: sets for lookups, the condition parsed. */
export interface LiveRule {
  readonly id: string;
  readonly datasetId: string;
  readonly keys: ReadonlySet<string> | null;
  readonly signature: string | null;
  readonly models: ReadonlySet<string> | null;
  readonly when: CascadeCondition | null;
  readonly sampleRate: number;
  readonly dailyCap: number;
  readonly keepImages: boolean;
}

export const liveRule = (rule: StoredCaptureRule): LiveRule => ({
  id: rule.id,
  datasetId: rule.dataset_id,
  keys: rule.key_ids ? new Set(rule.key_ids) : null,
  signature: rule.question_signature,
  models: rule.models ? new Set(rule.models) : null,
  when: (rule.when ?? null) as CascadeCondition | null,
  sampleRate: rule.sample_rate,
  dailyCap: rule.daily_cap,
  keepImages: rule.keep_images,
});

/** An answered public request, as a rule reads it. */
export interface AnsweredCall {
  keyId: string;
  /** The model the caller asked for, and the one whose answers were returned (a cascade's second, say). */
  asked: string;
  answeredBy: string;
  questions: Readonly<Record<string, Question>>;
  answers: Readonly<Record<string, Answer>>;
}

/**
 * Whether a rule picks the call (sampling aside): its key, its model (asked for or answering), its
 * questions' signature (worked out only when a rule asks, once a call) and its condition on the
 * answers, each when the rule names one.
 */
export function matches(rule: LiveRule, call: AnsweredCall, signature: () => string): boolean {
  if (rule.keys && !rule.keys.has(call.keyId)) return false;
  if (rule.models && !rule.models.has(call.asked) && !rule.models.has(call.answeredBy)) return false;
  if (rule.signature !== null && rule.signature !== signature()) return false;
  return rule.when === null || evaluateCondition(rule.when, call.questions, call.answers).holds;
}
