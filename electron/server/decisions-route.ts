import { characterCount, DecisionsRequestSchema, MAX_SESSION_ID_LENGTH, type DecisionsRequest } from '../../shared/schemas/decisions-request';
import { isPlainDecisionsRequest } from '../../shared/schemas/fast-accept';
import type { CancelSignal } from '../core/cancel';
import { knownModel, stagesFromCascadeField, withoutCascade } from '../core/public-api/cascade-request';
import { answerApiCall, type ApiCallAnswer } from '../core/public-api/decisions-call';
import type { Core } from '../core/core';
import type { VerifiedKey } from '../core/keys/api-keys';
import { GatewayError } from '../core/errors';
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

/**
 * `POST /api/alpha/decisions` once the caller is admitted, as HTTP sees it: the body read as JSON
 * and validated, the session header checked, then the call answered by the core (credit, charge,
 * request log, trace: api/decisions-call.ts). Both HTTP front ends (the router and the direct lane)
 * call this, so they answer alike.
 */
export async function answerDecisions(core: Core, call: DecisionsCall): Promise<ApiCallAnswer> {
  const json = parseJsonText(call.body, 'a DecisionsRequest');
  // The cascade extension (docs/API.md) is taken out before the spec's strict request is checked.
  const { cascade, body } = withoutCascade(json);
  // The common, plainly valid request passes a quick check; anything else gets the schema (and its error messages).
  const request = isPlainDecisionsRequest(body) ? body : parseOrBadRequest(DecisionsRequestSchema, body, 'DecisionsRequest');
  const stages = cascade === undefined ? undefined : await stagesFromCascadeField(cascade, request, core.cascadePresets, knownModel(core));
  return answerApiCall(core, { request, sessionId: sessionOf(request, call), keyId: call.key.id, requestId: call.requestId, signal: call.signal, stages });
}

export { withoutCascade };

/** The body's session_id, else the `x-session-id` header (checked here, under its own name); neither is ever sent to a provider. */
export function sessionOf(request: Pick<DecisionsRequest, 'session_id'>, call: Pick<DecisionsCall, 'sessionHeader'>): string | null {
  const sessionId = request.session_id ?? call.sessionHeader ?? null;
  if (request.session_id === undefined && sessionId !== null && characterCount(sessionId) > MAX_SESSION_ID_LENGTH) {
    throw new GatewayError('bad_request', `x-session-id: at most ${MAX_SESSION_ID_LENGTH} characters`);
  }
  return sessionId;
}
