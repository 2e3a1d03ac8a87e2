/** What one item's result is stored as: pure, from the runner's outcome of a request. */
import type { DecisionsResponse } from '../../../../shared/schemas/decisions-response';
import type { Question } from '../../../../shared/schemas/question';
import { usageOf } from '../../decisions/usage';
import { GatewayError } from '../../errors';
import { calibratedAnswers } from '../calibration/apply-calibration';
import type { NewEvalFailure, NewEvalResult } from './storage';

/**
 * Whether a failed request is worth sending again on resume. The request itself was refused
 * (400 bad request, 404 no such model, 405, 413 too large): it would be refused again. Anything
 * else may pass later: rate limits, provider faults and timeouts, and keys or credits (401, 402,
 * 403) that the user can fix before resuming.
 */
export function retryableFailure(error: unknown): boolean {
  return !(error instanceof GatewayError && [400, 404, 405, 413].includes(error.status));
}

/** Who answered and when, as every stored result says. */
interface Stamp {
  /** the item and model the result is of, with the item's content */
  task: { position: number; variant: number; state: unknown };
  /** the variant's name as variantKeys() forms it */
  modelKey: string;
  latency: number;
  answeredAt: string;
}

/** An answer as stored: the run's temperatures applied (the model's own answers kept beside when they changed). */
export function answerRow(
  o: Stamp & {
    questions: Record<string, Question>;
    outcome: { response: DecisionsResponse; methods: Record<string, string>; attempts: unknown[] | null };
    temperatures: ReadonlyMap<string, number> | undefined;
  },
): NewEvalResult {
  const { response, methods, attempts } = o.outcome;
  const calibrated = calibratedAnswers(o.questions, { answers: response.answers, methods }, o.temperatures);
  return {
    variant: o.task.variant,
    position: o.task.position,
    answers: calibrated.answers,
    raw_answers: calibrated.answers === response.answers ? null : response.answers,
    methods: calibrated.methods,
    attempts,
    provider: response.provider ?? null,
    input_tokens: response.usage.input_tokens,
    output_tokens: response.usage.output_tokens,
    cost: response.usage.cost ?? null,
    latency_ms: o.latency,
    error: null,
    answered_at: o.answeredAt,
    model_key: o.modelKey,
    content_chars: contentChars(o.task.state),
  };
}

/** A failure as stored: what it cost before it failed, its message, and whether a resume sends it again. */
export function failureRow(o: Stamp & { error: unknown }): NewEvalFailure {
  const usage = usageOf(o.error);
  const message = o.error instanceof GatewayError ? `${o.error.status}: ${o.error.message}` : o.error instanceof Error ? o.error.message : String(o.error);
  return {
    variant: o.task.variant,
    position: o.task.position,
    input_tokens: usage?.input_tokens ?? 0,
    output_tokens: usage?.output_tokens ?? 0,
    cost: usage?.cost ?? null,
    latency_ms: o.latency,
    error: message,
    retryable: retryableFailure(o.error),
    answered_at: o.answeredAt,
    model_key: o.modelKey,
    content_chars: contentChars(o.task.state),
  };
}

/** The length of an item's content as stored (its JSON text), which the expected cost is refined on. */
function contentChars(state: unknown): number {
  return JSON.stringify(state).length;
}
