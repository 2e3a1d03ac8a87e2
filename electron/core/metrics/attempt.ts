/** How one upstream attempt ended. Everything but 'ok' is a failure of some kind. */
export const ATTEMPT_OUTCOMES = [
  'ok',
  'connection',
  'timeout',
  'rate_limited',
  'overloaded',
  'server_error',
  'auth',
  'not_found',
  'bad_request',
  'invalid_response',
  'cancelled',
  /** Not tried: the provider needs a key that is not set. */
  'unconfigured',
  /** The endpoint does not support a parameter or feature the call used (a capability, learned). */
  'unsupported',
  /** The model declined: a refusal, a content filter, a blocked prompt. An answer, not an outage. */
  'refused',
  /** The output budget ran out before an answer (e.g. spent thinking). */
  'incomplete',
  /** The account behind our provider key is out of quota or billing: a key problem, not a passing limit. */
  'quota',
] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

/** Failures that are the provider's (or its connection's) fault, which count against uptime. */
export const PROVIDER_FAULTS: ReadonlySet<AttemptOutcome> = new Set([
  'connection',
  'timeout',
  'rate_limited',
  'overloaded',
  'server_error',
  'invalid_response',
]);

export interface AttemptRecord {
  requestId: string;
  endpointId: string;
  /** ms since the epoch */
  startedAt: number;
  /** ms from start to response headers */
  ttfbMs: number | null;
  /** ms from start to the first output token */
  firstTokenMs: number | null;
  totalMs: number;
  inputTokens: number | null;
  outputTokens: number | null;
  outcome: AttemptOutcome;
  message: string | null;
}
