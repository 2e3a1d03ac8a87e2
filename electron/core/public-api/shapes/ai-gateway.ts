import { DecisionsRequestSchema } from '../../../../shared/schemas/decisions-request';
import { parseOrBadRequest } from '../../validation';
import { stagesFromGatewayModels } from '../cascade-request';
import type { PublicShape } from '../shape';
import { fromGatewayRequest, gatewayErrorBody, GatewayDecisionRequestSchema, toGatewayResponse } from './ai-gateway-protocol';

/**
 * `POST /api/ai/decision-model`: the AI SDK's gateway protocol, so that
 * `createGateway({ baseURL: '{host}/api/ai' })` and string model ids in `experimental_decide` are
 * answered here by any model. The model comes from the `ai-model-id` header; the rounding the
 * answers were given to is declared with them.
 */
export const aiGatewayShape: PublicShape = {
  path: '/ai/decision-model',
  what: 'a decision request',
  parse(json, ctx) {
    const body = parseOrBadRequest(GatewayDecisionRequestSchema, json, 'decision request');
    const request = parseOrBadRequest(DecisionsRequestSchema, fromGatewayRequest(ctx.header('ai-model-id'), body), 'decision request');
    const models = body.providerOptions?.['gateway']?.['models'];
    const stages = models === undefined ? undefined : stagesFromGatewayModels(models, request.questions, ctx.knownModel);
    return {
      request,
      stages,
      route: 'ai-gateway',
      refusals: 'keep',
      render: ({ outcome, cascade }) => toGatewayResponse(body.questions, outcome, request, cascade),
    };
  },
  errorBody: gatewayErrorBody,
  openapi: {
    operationId: 'createGatewayDecision',
    summary: "The AI SDK gateway protocol (createGateway({ baseURL: '{host}/api/ai' })), answered by any model",
    headers: [
      { name: 'ai-model-id', required: true, description: 'The model' },
      { name: 'ai-decision-model-specification-version', required: false },
    ],
    request: { $ref: '#/components/schemas/GatewayDecisionRequest' },
    response: { $ref: '#/components/schemas/GatewayDecision' },
    responseDescription: 'Answers by question id, with the rounding they were given to',
    errorSchema: { ref: 'GatewayError', description: "the gateway protocol's error body" },
  },
};
