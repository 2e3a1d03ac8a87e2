import type { ErrorKind } from '../../../shared/contract/errors';
import { endpointSlug } from '../catalog/catalog';
import type { CatalogEndpoint } from '../catalog/types';
import type { Clock } from '../clock';
import { GatewayError, isGatewayError } from '../errors';
import type { AttemptOutcome } from '../metrics/attempt';
import type { EndpointMetrics } from '../metrics/endpoint-metrics';
import { PROVIDER_FAULTS } from '../metrics/attempt';
import type { Timings, UpstreamUsage } from '../providers/types';
import { UpstreamError, type FailureKind } from '../providers/upstream-error';
import type { HealthRegistry } from './health';
import type { Plan, PlannedAttempt } from './plan';
import { Cancellation, type CancelSignal } from '../cancel';

export interface AttemptOutput<T> {
  value: T;
  usage: UpstreamUsage;
  timings: Timings;
}

export interface AttemptSummary {
  endpoint: CatalogEndpoint;
  /** ms since the epoch */
  startedAt: number;
  outcome: AttemptOutcome;
  message: string | null;
  usage: UpstreamUsage | null;
  totalMs: number;
}

export interface ExecutionResult<T> {
  value: T;
  endpoint: CatalogEndpoint;
  attempts: AttemptSummary[];
}

export interface ExecuteOptions {
  requestId: string;
  /** Total time for the whole request, every attempt included. */
  deadlineMs: number;
  /** Longest a single attempt may take (never beyond what is left of the deadline). */
  attemptTimeoutMs: number;
  signal?: CancelSignal | undefined;
}

export interface ExecutorDeps {
  clock: Clock;
  health: HealthRegistry;
  metrics: EndpointMetrics;
}

const MIN_ATTEMPT_MS = 10;

/**
 * Caller faults: every provider would refuse the same request, so do not fall back. A refusal is
 * the model's answer to this content; the same model elsewhere would give it again.
 */
const CALLER_FAULTS: ReadonlySet<FailureKind> = new Set(['bad_request', 'refused']);

const STATUS_FOR: Record<FailureKind, ErrorKind> = {
  timeout: 'upstream_timeout',
  overloaded: 'overloaded',
  rate_limited: 'rate_limited',
  connection: 'bad_gateway',
  server_error: 'bad_gateway',
  invalid_response: 'bad_gateway',
  auth: 'bad_gateway',
  not_found: 'bad_gateway',
  bad_request: 'bad_request',
  cancelled: 'unavailable',
  unconfigured: 'unavailable',
  unsupported: 'bad_gateway',
  refused: 'bad_request',
  incomplete: 'bad_gateway',
  quota: 'bad_gateway',
};

const describe = (a: AttemptSummary) => `${endpointSlug(a.endpoint)}: ${a.message ?? a.outcome}`;

/**
 * Runs a plan's attempts in order until one succeeds. Each attempt gets its own timeout inside
 * one total deadline; provider faults fall back to the next endpoint, caller faults do not.
 * Every attempt is recorded for the metrics and feeds the circuit breaker.
 */
export async function executePlan<T>(
  plan: Plan,
  run: (attempt: PlannedAttempt, signal: CancelSignal) => Promise<AttemptOutput<T>>,
  deps: ExecutorDeps,
  options: ExecuteOptions,
): Promise<ExecutionResult<T>> {
  const started = deps.clock.now();
  const deadline = started + options.deadlineMs;
  const attempts: AttemptSummary[] = [];
  let lastKind: FailureKind | null = null;

  for (const planned of plan.attempts) {
    const left = deadline - deps.clock.now();
    // A few milliseconds are not enough for any provider to answer: stop rather than fail once more.
    if (left < MIN_ATTEMPT_MS) break;
    if (options.signal?.aborted) throw new GatewayError('unavailable', 'The request was cancelled');
    const timeoutMs = Math.min(options.attemptTimeoutMs, left);
    // One cancellation and one timer per attempt (AbortSignal.timeout/any cost more on the hot path).
    const signal = new Cancellation();
    const timer = setTimeout(abortForTimeout, timeoutMs, signal);
    const onCallerAbort = () => signal.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', onCallerAbort, { once: true });
    const attemptStart = deps.clock.now();
    try {
      let output: AttemptOutput<T>;
      try {
        output = await run(planned, signal);
      } finally {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onCallerAbort);
      }
      attempts.push(succeeded(deps, options.requestId, planned, attemptStart, output));
      return { value: output.value, endpoint: planned.endpoint, attempts };
    } catch (error) {
      const timedOut = signal.aborted && signal.reason instanceof AttemptTimeout && !options.signal?.aborted;
      // A fault of ours (a bug, or an answer we decided ourselves) is never counted against the
      // provider: no metric, no health change, no fallback that would move traffic elsewhere.
      if (!timedOut && !(error instanceof UpstreamError)) throw ownFault(error);
      const failure = normalizeFailure(error, timedOut, timeoutMs);
      attempts.push(failed(deps, options.requestId, planned, attemptStart, failure));
      if (failure.kind === 'cancelled') throw new GatewayError('unavailable', 'The request was cancelled');
      lastKind = failure.kind;
      if (CALLER_FAULTS.has(failure.kind)) {
        const lead = failure.kind === 'refused' ? 'the model declined to answer' : 'refused the request';
        throw new GatewayError('bad_request', `${endpointSlug(planned.endpoint)} ${lead}: ${failure.message}`, {
          metadata: { provider: planned.endpoint.provider.name, attempts: attempts.map(describe) },
        });
      }
    }
  }
  throw exhausted(plan, attempts, lastKind, deadline, deps, options.deadlineMs);
}

/** An attempt that answered: recorded for the metrics, and the breaker told. */
function succeeded<T>(deps: ExecutorDeps, requestId: string, planned: PlannedAttempt, startedAt: number, output: AttemptOutput<T>): AttemptSummary {
  const id = planned.endpoint.id;
  deps.health.onSuccess(id);
  deps.metrics.record({
    requestId,
    endpointId: id,
    startedAt,
    ttfbMs: output.timings.ttfbMs,
    firstTokenMs: output.timings.firstTokenMs,
    totalMs: output.timings.totalMs,
    inputTokens: output.usage.inputTokens,
    outputTokens: output.usage.outputTokens,
    outcome: 'ok',
    message: null,
  });
  return { endpoint: planned.endpoint, startedAt, outcome: 'ok', message: null, usage: output.usage, totalMs: output.timings.totalMs };
}

/** An attempt the provider failed: recorded, and counted against the endpoint's health where it is the provider's fault. */
function failed(
  deps: ExecutorDeps,
  requestId: string,
  planned: PlannedAttempt,
  startedAt: number,
  failure: ReturnType<typeof normalizeFailure>,
): AttemptSummary {
  const id = planned.endpoint.id;
  const totalMs = deps.clock.now() - startedAt;
  deps.metrics.record({
    requestId,
    endpointId: id,
    startedAt,
    ttfbMs: null,
    firstTokenMs: null,
    totalMs,
    inputTokens: null,
    outputTokens: null,
    outcome: failure.kind,
    message: failure.message.slice(0, 500),
  });
  if (failure.kind !== 'cancelled') {
    if (PROVIDER_FAULTS.has(failure.kind) || failure.kind === 'auth' || failure.kind === 'not_found' || failure.kind === 'quota') deps.health.onFailure(id);
    if (failure.details.retryAfterMs !== undefined) deps.health.onRetryAfter(id, failure.details.retryAfterMs);
  }
  return { endpoint: planned.endpoint, startedAt, outcome: failure.kind, message: failure.message, usage: null, totalMs };
}

/** Every endpoint tried failed, or the deadline passed: the error naming each attempt. */
function exhausted(
  plan: Plan,
  attempts: readonly AttemptSummary[],
  last: FailureKind | null,
  deadline: number,
  deps: ExecutorDeps,
  deadlineMs: number,
): GatewayError {
  let lastKind = last;
  const tried = attempts.map(describe).join('; ');
  // Only endpoints that could not even be called (no key): no provider is available.
  if (attempts.every((a) => a.outcome === 'unconfigured')) lastKind = 'unconfigured';
  if (attempts.length === 0) {
    return new GatewayError(
      'unavailable',
      `No provider endpoint could be tried for "${plan.attempts[0]?.endpoint.model.id ?? 'this model'}" before the deadline`,
    );
  }
  const outOfTime = deadline - deps.clock.now() < MIN_ATTEMPT_MS && attempts.length < plan.attempts.length;
  const kind: ErrorKind = outOfTime ? 'upstream_timeout' : STATUS_FOR[lastKind ?? 'server_error'];
  const lead = outOfTime
    ? `The deadline of ${deadlineMs} ms passed after ${attempts.length} of ${plan.attempts.length} endpoints`
    : `All ${attempts.length} endpoint${attempts.length === 1 ? '' : 's'} tried failed`;
  const retry = kind === 'rate_limited' ? retryAfterHeader(deps, plan) : undefined;
  return new GatewayError(kind, `${lead}: ${tried}`, {
    metadata: { attempts: attempts.map((a) => ({ provider: endpointSlug(a.endpoint), outcome: a.outcome, message: a.message })) },
    ...(retry ? { headers: { 'Retry-After': retry } } : {}),
  });
}

/** When every endpoint is rate limited, tell the caller when the soonest one frees up. */
function retryAfterHeader(deps: ExecutorDeps, plan: Plan): string | undefined {
  const now = deps.clock.now();
  const waits = plan.attempts
    .map((a) => deps.health.snapshot(a.endpoint.id).cooldownUntil)
    .filter((t): t is number => t !== null)
    .map((t) => Math.max(1, Math.ceil((t - now) / 1000)));
  return waits.length > 0 ? String(Math.min(...waits)) : undefined;
}

/** Our own per-attempt timeout wins over whatever the aborted transport reported. */
function normalizeFailure(error: unknown, timedOut: boolean, timeoutMs: number): UpstreamError {
  if (timedOut) return new UpstreamError('timeout', `timed out after ${timeoutMs} ms`);
  return error as UpstreamError;
}

/** A GatewayError raised on purpose travels as it is; anything else is a bug here, answered as a 500. */
function ownFault(error: unknown): GatewayError {
  if (isGatewayError(error)) return error;
  return new GatewayError('internal', 'Internal error while preparing or reading a provider call', { cause: error });
}

/** The reason an attempt's own timer gives (transports read it as a timeout). */
class AttemptTimeout extends DOMException {
  constructor() {
    super('attempt timed out', 'TimeoutError');
  }
}

function abortForTimeout(signal: Cancellation): void {
  signal.abort(new AttemptTimeout());
}
