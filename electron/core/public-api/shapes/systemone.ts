import { DecisionsRequestSchema } from '../../../../shared/schemas/decisions-request';
import { concentration } from '../../decisions/answers';
import { parseOrBadRequest } from '../../validation';
import { stagesFromCascadeField, withCascade, withoutCascade } from '../cascade-request';
import type { PublicShape, ShapeCall, ShapeContext } from '../shape';
import { fromSystemOneBody, toSystemOneResponse } from './systemone-translate';

/**
 * A System One body (TypeSafe's contract, the spec's shape with its leniencies) read: answered by
 * any model, every choice and score answer with the `confidence` TypeSafe's schema requires. Also
 * how `POST /api/v1/decisions` reads a body that is System One's (Perplexity's and Portkey's).
 */
export async function systemOneCall(json: unknown, ctx: ShapeContext): Promise<ShapeCall> {
  const { cascade, body } = withoutCascade(json);
  const request = parseOrBadRequest(DecisionsRequestSchema, fromSystemOneBody(body), 'System One request');
  const stages = cascade === undefined ? undefined : await stagesFromCascadeField(cascade, request, ctx.presets, ctx.knownModel, ctx.imageUrls.options ?? {});
  return {
    request,
    stages,
    route: 'systemone',
    render: ({ response, cascade: record }) => withCascade(toSystemOneResponse(response, concentration), record),
  };
}

/** `POST /api/v1/systemone` (TypeSafe's SDKs with base URL `{host}/api`, `@openrouter/sdk` `systemOne.create`). */
export const systemOneShape: PublicShape = {
  path: '/v1/systemone',
  what: 'a System One request',
  parse: systemOneCall,
  openapi: {
    operationId: 'createSystemOne',
    summary: "System One (TypeSafe's contract, the spec's shape), answered by any model; every choice and score answer with its confidence",
    request: { $ref: '#/components/schemas/DecisionsRequest' },
    response: { $ref: '#/components/schemas/DecisionsResponse' },
    responseDescription: 'One typed answer per question',
  },
};
