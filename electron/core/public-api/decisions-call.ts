import type { DecisionsRequest } from '../../../shared/schemas/decisions-request';
import type { DecisionsResponse } from '../../../shared/schemas/decisions-response';
import type { CancelSignal } from '../cancel';
import type { Clock } from '../clock';
import { usageOf } from '../decisions/usage';
import { GatewayError } from '../errors';
import type { Admission, Reservation } from '../keys/admission/admission';
import type { SpendLedger } from '../keys/spend-ledger';
import type { OtlpExporter } from '../trace/otlp';
import type { Answered, GatewayService } from '../service';
import type { CascadeRecord, StagePlan } from '../decisions/stages';
import type { RequestLog, RequestLogEntry } from './request-log';

export interface ApiCall {
  request: DecisionsRequest;
  /** The body's session_id, else the x-session-id header; never sent to a provider. */
  sessionId: string | null;
  keyId: string;
  requestId: string;
  /** Fires when the caller hangs up. */
  signal: CancelSignal | undefined;
  /** Which shape the caller spoke (recorded in the request log). */
  route?: ApiRoute;
  /** A declined question: a 400 (the spec's shape has no refusal) or a refusal answer in its place. */
  refusals?: 'fail' | 'keep';
  /** Other models to ask after the request's own: a cascade, error fallbacks (api/cascade.ts). */
  stages?: StagePlan | undefined;
}

/** The Decisions shapes served: the spec's, OpenAI's, System One's, the AI SDK gateway protocol's. */
export type ApiRoute = 'alpha' | 'openai' | 'systemone' | 'ai-gateway';

export interface ApiCallAnswer {
  response: DecisionsResponse;
  /** The whole outcome, for shapes that say more than the spec's (refusals, rounding, token details). */
  outcome: Answered;
  /** The bookkeeping that does not change the answer (the trace), for once it is on its way; the request log's line is written before the charge. */
  settle: () => void;
  /** How the stages went, when the call asked for several. */
  cascade: CascadeRecord | null;
  /** From the call's arrival to its answer, as the request log has it. */
  latencyMs: number;
}

/** What answering a call uses of the core: who is admitted, the service that answers, the request log, the spend and the trace. */
export interface ApiCallDeps {
  readonly clock: Clock;
  readonly admission: Admission;
  service(): GatewayService;
  readonly requestLog: RequestLog;
  readonly spend: SpendLedger;
  readonly tracer: OtlpExporter;
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
 * A public API Decisions call, as the key that made it sees it: credit checked and the most it can
 * cost reserved before any upstream call, its metadata in the request log and then the real cost
 * charged and committed before this returns or throws (what a failed request's upstream calls cost
 * too), so no answer leaves uncharged and no charge stands without its log line; its span traced
 * once the answer has left.
 */
export async function answerApiCall(core: ApiCallDeps, call: ApiCall): Promise<ApiCallAnswer> {
  const { request, sessionId } = call;
  const keyId = call.keyId;
  core.admission.onDecision(keyId);
  const started = core.clock.now();
  let reservation: Reservation | null = null;
  // Admitted once the most it can cost is known; this process's own admission answers at once (no await then).
  const admit = (maxCost: () => number) => {
    const admitted = core.admission.admit(keyId, call.requestId, maxCost);
    if (!(admitted instanceof Promise)) reservation = admitted;
    else return admitted.then((r) => void (reservation = r));
  };
  let outcome: Answered;
  let cascade: CascadeRecord | null = null;
  try {
    outcome = await core.service().decide(request, {
      requestId: call.requestId,
      admit,
      ...(call.signal ? { signal: call.signal } : {}),
      ...(call.refusals ? { refusals: call.refusals } : {}),
      ...(call.stages ? { stages: call.stages } : {}),
    });
    cascade = outcome.cascade;
  } catch (error) {
    // Upstream calls made before the failure were paid for: the key is charged what they cost.
    const usage = usageOf(error);
    const cost = usage?.cost ?? null;
    const ended = core.clock.now();
    // The line before the charge: a charge never stands without its line, whenever the process dies.
    await core.requestLog.append(logLine(call, started, error instanceof GatewayError ? error.status : 500, null, ended, cost));
    // Released and charged in one step: a cost neither held nor spent would let another request past the credit.
    core.admission.settle(keyId, reservation, cost ?? 0);
    await core.spend.charge(keyId, cost ?? 0, call.requestId);
    if (error instanceof GatewayError) {
      core.tracer.record({
        ...spanOf(request, sessionId, started, ended),
        provider: null,
        inputTokens: usage?.input_tokens ?? null,
        outputTokens: usage?.output_tokens ?? null,
        cost,
        error: error.message,
      });
    }
    throw error;
  }
  const ended = core.clock.now();
  const cost = outcome.response.usage.cost ?? null;
  // The line before the charge, the charge before the answer: a process killed at any moment leaves
  // no charge without its line (a line without its charge only between the two, a few milliseconds).
  await core.requestLog.append(logLine(call, started, 200, outcome, ended, cost));
  // Released and charged in one step: a cost neither held nor spent would let another request past the credit.
  core.admission.settle(keyId, reservation, cost ?? 0);
  await core.spend.charge(keyId, cost ?? 0, call.requestId);
  const settle = () => {
    if (core.tracer.enabled()) {
      const usage = outcome.response.usage;
      core.tracer.record({
        ...spanOf(request, sessionId, started, ended),
        provider: outcome.response.provider ?? null,
        inputTokens: usage.input_tokens,
        outputTokens: usage.output_tokens,
        cost: usage.cost ?? null,
        error: null,
      });
    }
  };
  return { response: outcome.response, outcome, settle, cascade, latencyMs: latencyOf(started, ended) };
}

const latencyOf = (started: number, ended: number) => Math.round((ended - started) * 1000) / 1000;

/** The request log's line for a call: metadata only (never the content, the questions or the answers). */
function logLine(call: ApiCall, started: number, status: number, outcome: Answered | null, ended: number, cost: number | null): RequestLogEntry {
  const { request } = call;
  return {
    id: call.requestId,
    created_at: new Date(started).toISOString(),
    key_id: call.keyId,
    session_id: call.sessionId,
    user: request.user ?? null,
    model: request.model,
    provider: outcome?.response.provider ?? null,
    endpoint_id: outcome?.endpointId ?? null,
    status,
    latency_ms: latencyOf(started, ended),
    input_tokens: outcome?.response.usage.input_tokens ?? null,
    output_tokens: outcome?.response.usage.output_tokens ?? null,
    cost,
    methods: outcome?.methods ?? null,
    question_count: Object.keys(request.questions).length,
    ...(call.route && call.route !== 'alpha' ? { route: call.route } : {}),
  };
}
