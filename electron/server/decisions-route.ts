import { characterCount, DecisionsRequestSchema, MAX_SESSION_ID_LENGTH, type DecisionsRequest } from '../../shared/schemas/decisions-request';
import type { DecisionsResponse } from '../../shared/schemas/decisions-response';
import { isPlainDecisionsRequest } from '../../shared/schemas/fast-accept';
import type { CancelSignal } from '../core/cancel';
import type { Core } from '../core/create-core';
import type { RequestLogEntry } from '../core/decisions/request-log';
import { GatewayError } from '../core/errors';
import type { Reservation, VerifiedKey } from '../core/keys/api-keys';
import { usageOf } from '../core/decisions/usage';
import type { Answered } from '../core/service';
import { parseOrBadRequest } from '../core/validation';
import { parseJsonText } from './http-errors';

export interface DecisionsCall {
  /** The request body as sent. */
  body: string;
  /** The `x-session-id` header, if any. */
  sessionHeader: string | undefined;
  key: VerifiedKey;
  requestId: string;
  /** Fires when the caller hangs up. */
  signal: CancelSignal | undefined;
}

const spanOf = (request: DecisionsRequest, sessionId: string | null, startMs: number, endMs: number) => ({
  trace: request.trace,
  model: request.model,
  sessionId,
  user: request.user ?? null,
  startMs,
  endMs,
});

/**
 * `POST /api/alpha/decisions` once the caller is admitted: validation, credit and the answer.
 * Both HTTP front ends (the router and the direct lane) call this, so they answer alike. The charge
 * is committed before this returns or throws (what a failed request's upstream calls cost too), so
 * no answer leaves uncharged. The rest of the bookkeeping (request log, trace) is returned as
 * `settle`, for the caller to run once the answer is on its way.
 */
export async function answerDecisions(core: Core, call: DecisionsCall): Promise<{ response: DecisionsResponse; settle: () => void }> {
  const body = parseJsonText(call.body, 'a DecisionsRequest');
  // The common, plainly valid request passes a quick check; anything else gets the schema (and its error messages).
  const request = isPlainDecisionsRequest(body) ? body : parseOrBadRequest(DecisionsRequestSchema, body, 'DecisionsRequest');
  // The body's session_id wins over the header; neither is ever sent to a provider.
  const sessionId = request.session_id ?? call.sessionHeader ?? null;
  // The body's value was checked by the schema; a header's is checked here, under its own name.
  if (request.session_id === undefined && sessionId !== null && characterCount(sessionId) > MAX_SESSION_ID_LENGTH) {
    throw new GatewayError('bad_request', `x-session-id: at most ${MAX_SESSION_ID_LENGTH} characters`);
  }
  const keyId = call.key.id;
  core.apiKeys.admitCredit(keyId);
  const started = core.clock.now();
  const logged = (status: number, outcome: Answered | null, ended: number, cost: number | null): RequestLogEntry => ({
    id: call.requestId,
    created_at: new Date(started).toISOString(),
    key_id: keyId,
    session_id: sessionId,
    user: request.user ?? null,
    model: request.model,
    provider: outcome?.response.provider ?? null,
    endpoint_id: outcome?.endpointId ?? null,
    status,
    latency_ms: Math.round((ended - started) * 1000) / 1000,
    input_tokens: outcome?.response.usage.input_tokens ?? null,
    output_tokens: outcome?.response.usage.output_tokens ?? null,
    cost,
    methods: outcome?.methods ?? null,
    question_count: Object.keys(request.questions).length,
  });
  let reservation: Reservation | null = null;
  const admit = (maxCost: () => number) => {
    reservation = core.apiKeys.reserve(keyId, maxCost);
  };
  let outcome: Answered;
  try {
    outcome = await core.service().decide(request, { requestId: call.requestId, admit, ...(call.signal ? { signal: call.signal } : {}) });
  } catch (error) {
    // Upstream calls made before the failure were paid for: the key is charged what they cost.
    const usage = usageOf(error);
    const cost = usage?.cost ?? null;
    await core.apiKeys.charge(keyId, cost ?? 0, reservation);
    if (error instanceof GatewayError) {
      const ended = core.clock.now();
      core.requestLog.append(logged(error.status, null, ended, cost));
      core.tracer.record({ ...spanOf(request, sessionId, started, ended), provider: null, inputTokens: usage?.input_tokens ?? null, outputTokens: usage?.output_tokens ?? null, cost, error: error.message });
    }
    throw error;
  }
  const ended = core.clock.now();
  const cost = outcome.response.usage.cost ?? null;
  await core.apiKeys.charge(keyId, cost ?? 0, reservation);
  const settle = () => {
    core.requestLog.append(logged(200, outcome, ended, cost));
    if (core.tracer.enabled()) {
      const usage = outcome.response.usage;
      core.tracer.record({ ...spanOf(request, sessionId, started, ended), provider: outcome.response.provider ?? null, inputTokens: usage.input_tokens, outputTokens: usage.output_tokens, cost: usage.cost ?? null, error: null });
    }
  };
  return { response: outcome.response, settle };
}
