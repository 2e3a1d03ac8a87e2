import { DecisionsRequestSchema } from '../../../../shared/schemas/decisions-request';
import { OpenAiDecisionRequestSchema } from '../../../../shared/schemas/openai-decisions';
import { concentration } from '../../decisions/answers';
import { fetchImage } from '../../decisions/image-fetch';
import { GatewayError } from '../../errors';
import { parseOrBadRequest } from '../../validation';
import type { PublicShape, ShapeContext } from '../shape';
import { fromOpenAiRequest, toOpenAiDecision, type ImageResolver } from './openai-translate';
import { systemOneCall } from './systemone';

/** A body in OpenAI's shape has `input` or ordered questions; System One's has `state` and named ones. */
const isOpenAiShape = (json: object): boolean => 'input' in json || Array.isArray((json as { questions?: unknown }).questions);

/**
 * `POST /api/v1/decisions`: OpenAI's Decisions (the OpenAI SDK, `@ai-sdk/openai`, promptfoo and
 * LangChain with base URL `{host}/api/v1`), answered by any model; the same path takes a System One
 * body, told apart by its shape. A refused question is answered as a refusal, the others answered
 * and billed. A box question has no place in this shape: it is refused, naming the routes that take it.
 */
export const openAiShape: PublicShape = {
  path: '/v1/decisions',
  what: 'a Decisions request',
  async parse(json, ctx) {
    if (typeof json !== 'object' || json === null || Array.isArray(json))
      throw new GatewayError(
        'bad_request',
        `The request body must be a JSON object (got ${json === null ? 'null' : Array.isArray(json) ? 'an array' : `a ${typeof json}`}): OpenAI's Decisions request (model, input, questions) or System One's (model, state, questions)`,
      );
    if (!isOpenAiShape(json)) return systemOneCall(json, ctx);
    refuseBoxes(json);
    const body = parseOrBadRequest(OpenAiDecisionRequestSchema, json, 'Decisions request');
    const from = await fromOpenAiRequest(body, imageResolver(ctx));
    const request = parseOrBadRequest(DecisionsRequestSchema, from.request, 'Decisions request');
    return {
      request,
      route: 'openai',
      refusals: 'keep',
      render: ({ outcome }) =>
        toOpenAiDecision(
          from,
          { model: body.model, answers: outcome.response.answers, refused: outcome.refused, usage: outcome.response.usage, tokens: outcome.tokens },
          concentration,
        ),
    };
  },
  errorBody: openAiErrorBody,
  openapi: {
    operationId: 'createOpenAiDecision',
    summary:
      "OpenAI's Decisions (input + ordered questions; answers in order, a refusal per question), answered by any model. A System One body is answered as /api/v1/systemone answers it.",
    request: { oneOf: [{ $ref: '#/components/schemas/OpenAiDecisionRequest' }, { $ref: '#/components/schemas/DecisionsRequest' }] },
    response: { oneOf: [{ $ref: '#/components/schemas/OpenAiDecision' }, { $ref: '#/components/schemas/DecisionsResponse' }] },
    responseDescription: "The answers in the request's shape",
    errorSchema: { ref: 'OpenAiError', description: "OpenAI's error object" },
  },
};

function refuseBoxes(json: object): void {
  const questions = (json as { questions?: unknown }).questions;
  if (!Array.isArray(questions)) return;
  const at = questions.findIndex((q) => typeof q === 'object' && q !== null && (q as { type?: unknown }).type === 'box');
  if (at >= 0)
    throw new GatewayError(
      'bad_request',
      `questions[${at}].type: OpenAI's shape has no box question; box questions are answered at POST /api/v1/systemone and POST /api/alpha/decisions`,
      { metadata: { param: `questions[${at}].type` } },
    );
}

/** https image URLs are fetched only where the settings say so; otherwise the caller is told to embed the image. */
function imageResolver(ctx: ShapeContext): ImageResolver {
  return async (url, where) => {
    if (!ctx.imageUrls.fetch) {
      throw new GatewayError(
        'bad_request',
        `${where}: image URLs are not fetched by this server (Settings: image URLs); embed the image as a data:image/…;base64 URL`,
        { metadata: { param: where } },
      );
    }
    return fetchImage(url, where, ctx.imageUrls.options);
  };
}

/** OpenAI's error object for a GatewayError, with the type and code OpenAI gives the same status. */
export function openAiErrorBody(error: GatewayError): { error: { message: string; type: string; param: string | null; code: string | null } } {
  const problems = (error.metadata?.['problems'] as { path: string }[] | undefined) ?? [];
  const named = (error.metadata?.['param'] as string | undefined) ?? problems[0]?.path ?? null;
  const param = named === '(root)' ? null : named;
  const [type, code] =
    error.status === 401
      ? ['invalid_request_error', 'invalid_api_key']
      : error.status === 402
        ? ['insufficient_quota', 'insufficient_quota']
        : error.status === 404
          ? ['invalid_request_error', /^Model "/.test(error.message) ? 'model_not_found' : null]
          : error.status === 429
            ? ['requests', 'rate_limit_exceeded']
            : error.status >= 500
              ? ['server_error', null]
              : ['invalid_request_error', error.status === 400 ? 'invalid_value' : null];
  return { error: { message: error.message, type, param, code } };
}
