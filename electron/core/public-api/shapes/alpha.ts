import { DecisionsRequestSchema } from '../../../../shared/schemas/decisions-request';
import { isPlainDecisionsRequest } from '../../../../shared/schemas/fast-accept';
import { parseOrBadRequest } from '../../validation';
import { stagesFromCascadeField, withCascade, withoutCascade } from '../cascade-request';
import type { PublicShape } from '../shape';

/** `POST /api/alpha/decisions`: the spec's own shape, with the `cascade` extension (docs/API.md). */
export const alphaShape: PublicShape = {
  path: '/alpha/decisions',
  what: 'a DecisionsRequest',
  async parse(json, ctx) {
    // The cascade extension is taken out before the spec's strict request is checked.
    const { cascade, body } = withoutCascade(json);
    // The common, plainly valid request passes a quick check; anything else gets the schema (and its error messages).
    const request = isPlainDecisionsRequest(body) ? body : parseOrBadRequest(DecisionsRequestSchema, body, 'DecisionsRequest');
    const stages = cascade === undefined ? undefined : await stagesFromCascadeField(cascade, request, ctx.presets, ctx.knownModel, ctx.imageUrls.options ?? {});
    return { request, stages, route: 'alpha', render: ({ response, cascade: record }) => withCascade(response, record) };
  },
  openapi: {
    operationId: 'createDecisions',
    summary: 'Answer named questions about some content',
    headers: [{ name: 'x-session-id', required: false, description: 'Groups requests; the body session_id wins' }],
    request: { $ref: '#/components/schemas/DecisionsRequest' },
    response: { $ref: '#/components/schemas/DecisionsResponse' },
    responseDescription: 'One typed answer per question',
  },
};
