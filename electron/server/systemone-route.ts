import { DecisionsRequestSchema } from '../../shared/schemas/decisions-request';
import type { DecisionsResponse } from '../../shared/schemas/decisions-response';
import { answerApiCall, type ApiCallAnswer } from '../core/public-api/decisions-call';
import type { Core } from '../core/core';
import { concentration } from '../core/decisions/answers';
import { fromSystemOneBody, toSystemOneResponse } from '../core/public-api/shapes/systemone-translate';
import { parseOrBadRequest } from '../core/validation';
import type { CascadeRecord } from '../core/decisions/stages';
import { knownModel, stagesFromCascadeField } from '../core/public-api/cascade-request';
import { sessionOf, withoutCascade, type DecisionsCall } from './decisions-route';

/**
 * `POST /api/v1/systemone` (TypeSafe's SDKs with base URL `{host}/api`, `@openrouter/sdk`
 * `systemOne.create`), and `POST /api/v1/decisions` when its body is System One's (Perplexity's
 * and Portkey's `/v1/decisions`): the spec's shape with TypeSafe's leniencies, answered by any
 * model, every choice and score answer with the `confidence` TypeSafe's schema requires.
 */
export async function answerSystemOne(
  core: Core,
  call: DecisionsCall,
  json: unknown,
): Promise<{ response: DecisionsResponse & { cascade?: CascadeRecord }; settle: ApiCallAnswer['settle'] }> {
  const { cascade, body } = withoutCascade(json);
  const request = parseOrBadRequest(DecisionsRequestSchema, fromSystemOneBody(body), 'System One request');
  const stages = cascade === undefined ? undefined : await stagesFromCascadeField(cascade, request, core.cascadePresets, knownModel(core));
  const {
    response,
    settle,
    cascade: record,
  } = await answerApiCall(core, {
    stages,
    request,
    sessionId: sessionOf(request, call),
    keyId: call.key.id,
    requestId: call.requestId,
    signal: call.signal,
    route: 'systemone',
  });
  const shaped = toSystemOneResponse(response, concentration);
  return { response: record ? { ...shaped, cascade: record } : shaped, settle };
}
