import { DecisionsRequestSchema } from '../../shared/schemas/decisions-request';
import { fromGatewayRequest, GatewayDecisionRequestSchema, toGatewayResponse } from '../core/public-api/shapes/ai-gateway-protocol';
import { knownModel, stagesFromGatewayModels } from '../core/public-api/cascade-request';
import { answerApiCall, type ApiCallAnswer } from '../core/public-api/decisions-call';
import type { Core } from '../core/core';
import { parseOrBadRequest } from '../core/validation';
import { sessionOf, type DecisionsCall } from './decisions-route';

/**
 * `POST /api/ai/decision-model`: the AI SDK's gateway protocol, so that
 * `createGateway({ baseURL: '{host}/api/ai' })` and string model ids in `experimental_decide` are
 * answered here by any model. The rounding the answers were given to is declared with them.
 */
export async function answerGateway(
  core: Core,
  call: DecisionsCall,
  model: string | undefined,
  json: unknown,
): Promise<{ body: unknown; settle: ApiCallAnswer['settle'] }> {
  const body = parseOrBadRequest(GatewayDecisionRequestSchema, json, 'decision request');
  const request = parseOrBadRequest(DecisionsRequestSchema, fromGatewayRequest(model, body), 'decision request');
  const models = body.providerOptions?.['gateway']?.['models'];
  const stages = models === undefined ? undefined : stagesFromGatewayModels(models, request.questions, knownModel(core));
  const { outcome, settle, cascade } = await answerApiCall(core, {
    stages,
    request,
    sessionId: sessionOf(request, call),
    keyId: call.key.id,
    requestId: call.requestId,
    signal: call.signal,
    route: 'ai-gateway',
    refusals: 'keep',
  });
  return { body: toGatewayResponse(body.questions, outcome, request, cascade), settle };
}
