import { z } from 'zod';
import type { Answer } from '../../../../shared/schemas/answer';
import type { DecisionsRequest } from '../../../../shared/schemas/decisions-request';
import type { Rounding } from '../../providers/decision-host';
import { GatewayError } from '../../errors';
import { imageDataUrl } from '../../decisions/state';
import { namedRecord } from '../../../../shared/schemas/key';
import type { CascadeRecord } from '../../decisions/stages';
import { foldCriteria } from '../../providers/fold-criteria';
import type { Answered } from '../../service';

/**
 * The AI SDK's gateway protocol for decision models, as `@ai-sdk/gateway` 4.0.146 speaks it
 * (`src/gateway-decision-model.ts`): `POST {baseURL}/decision-model`, the model in the `ai-model-id`
 * header, a body of `stateParts` and questions in the AI SDK's words (`boolean`, `choice`,
 * `score`); answers by question id (`boolean` → `probability`), a `refusal` per question, the
 * `rounding` the answers were given to, camel-cased `usage`, and `providerMetadata`. Its errors are
 * `{error: {message, type, param?, code?}}`, read by `type`.
 */

const guidance = z.union([z.string(), namedRecord(z.string(), z.unknown()), z.array(z.unknown())]);
const nullable = guidance.nullish();

const StatePartSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }).loose(),
  z.object({ type: z.literal('json'), value: z.unknown() }).loose(),
  z.object({ type: z.literal('file'), mediaType: z.string(), data: z.object({ type: z.literal('data'), data: z.string() }) }).loose(),
]);

const GatewayQuestionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('boolean'), instructions: nullable, criteria: z.object({ true: nullable, false: nullable }).strict().nullish() }).strict(),
  z.object({ type: z.literal('choice'), instructions: nullable, criteria: namedRecord(z.string(), nullable) }).strict(),
  z.object({ type: z.literal('score'), instructions: nullable, criteria: z.array(nullable) }).strict(),
  z.object({ type: z.literal('box'), instructions: nullable }).strict(),
]);

export const GatewayDecisionRequestSchema = z.object({
  stateParts: z.array(StatePartSchema),
  questions: namedRecord(z.string(), GatewayQuestionSchema),
  maxOutputTokens: z.number().int().positive().nullish(),
  reasoning: z.unknown().optional(),
  providerOptions: z.record(z.string(), z.record(z.string(), z.unknown())).nullish(),
});
export type GatewayDecisionRequest = z.infer<typeof GatewayDecisionRequestSchema>;

const probabilities = z.record(z.string(), z.number().min(0).max(1));
/** What this route answers (`@ai-sdk/gateway`'s response schema, as sent here). */
export const GatewayDecisionResponseSchema = z.object({
  answers: z.record(
    z.string(),
    z.discriminatedUnion('type', [
      z.object({ type: z.literal('boolean'), probability: z.number().min(0).max(1) }),
      z.object({ type: z.literal('choice'), choice: z.string(), probabilities: probabilities.optional() }),
      z.object({ type: z.literal('score'), score: z.number(), probabilities: probabilities.optional() }),
      z.object({ type: z.literal('refusal') }),
    ]),
  ),
  model: z.string(),
  rounding: z.object({ probabilityDecimals: z.number().int(), scoreDecimals: z.number().int() }).optional(),
  usage: z.object({ inputTokens: z.number().int(), outputTokens: z.number().int() }),
  warnings: z.array(z.unknown()),
  providerMetadata: z.record(z.string(), z.record(z.string(), z.unknown())),
});
export const GatewayErrorBodySchema = z.object({
  error: z.object({ message: z.string(), type: z.string(), param: z.unknown().optional(), code: z.union([z.string(), z.number()]).nullish() }),
});

/** The spec request a gateway-protocol call asks. Box questions are refused: the protocol has no box answer. */
export function fromGatewayRequest(model: string | undefined, body: GatewayDecisionRequest): DecisionsRequest {
  if (!model) throw new GatewayError('bad_request', 'ai-model-id: the header naming the model is missing');
  const questions = Object.fromEntries(
    Object.entries(body.questions).map(([id, q]) => {
      if (q.type === 'box')
        throw new GatewayError(
          'bad_request',
          `questions.${id}: the gateway protocol has no box answer; box questions are answered at POST /api/v1/systemone and POST /api/alpha/decisions`,
        );
      const instructions = q.instructions ?? '';
      if (q.type === 'choice') return [id, { type: 'choice', instructions, criteria: q.criteria }];
      if (q.type === 'score') {
        const blank = q.criteria.findIndex((c) => c === null || c === undefined);
        if (blank >= 0) throw new GatewayError('bad_request', `questions.${id}.criteria[${blank}]: a score level needs a description`);
        return [id, { type: 'score', instructions, criteria: q.criteria as NonNullable<(typeof q.criteria)[number]>[] }];
      }
      const yes = q.criteria?.true;
      const no = q.criteria?.false;
      if (yes !== undefined && yes !== null && no !== undefined && no !== null) return [id, { type: 'noul', instructions, criteria: { true: yes, false: no } }];
      // A lone criterion is folded into the instructions, as the AI SDK's own providers fold it.
      return [id, { type: 'noul', instructions: foldCriteria(instructions, yes, no) }];
    }),
  );
  return { model, state: stateOf(body.stateParts), questions } as DecisionsRequest;
}

function stateOf(parts: GatewayDecisionRequest['stateParts']): DecisionsRequest['state'] {
  const only = parts.length === 1 ? parts[0]! : null;
  if (only?.type === 'text') return only.text;
  if (only?.type === 'json' && typeof only.value === 'object' && only.value !== null) return only.value as Record<string, unknown>;
  return parts.map((part, i) => {
    if (part.type === 'text') return part.text;
    if (part.type === 'json') return typeof part.value === 'object' && part.value !== null ? part.value : JSON.stringify(part.value);
    if (!part.mediaType.startsWith('image/'))
      throw new GatewayError('bad_request', `stateParts[${i}]: ${part.mediaType} files are not taken; images (PNG, JPEG, GIF, WebP) are`);
    const url = `data:${part.mediaType};base64,${part.data.data}`;
    // Checked here, in the caller's words, before it is a state's part.
    imageDataUrl(url, `stateParts[${i}].data.data`);
    return { type: 'image_url', image_url: { url } };
  });
}

/** The answers in the protocol's words, with the rounding they were given to and what the caller may want to know beside them. */
export function toGatewayResponse(
  questions: Readonly<Record<string, { type: string }>>,
  outcome: Answered,
  request: DecisionsRequest,
  cascade: CascadeRecord | null = null,
) {
  const answers: Record<string, unknown> = {};
  const confidence: Record<string, number> = {};
  for (const id of Object.keys(questions)) {
    if (outcome.refused.includes(id)) {
      answers[id] = { type: 'refusal' };
      continue;
    }
    const a = outcome.response.answers[id] as Answer;
    if (a.type === 'noul') answers[id] = { type: 'boolean', probability: a.noul };
    else if (a.type === 'choice') answers[id] = { type: 'choice', choice: a.choice, ...(a.probabilities ? { probabilities: a.probabilities } : {}) };
    else if (a.type === 'score') answers[id] = { type: 'score', score: a.score, ...(a.probabilities ? { probabilities: a.probabilities } : {}) };
    if ((a.type === 'choice' || a.type === 'score') && a.confidence !== undefined) confidence[id] = a.confidence;
  }
  const usage = outcome.response.usage;
  return {
    answers,
    // The model whose answers these are (the second stage's when a cascade went on to it).
    model: cascade?.answered_by ?? request.model,
    ...(outcome.rounding ? { rounding: roundingOf(outcome.rounding) } : {}),
    usage: { inputTokens: usage.input_tokens, outputTokens: usage.output_tokens },
    warnings: [],
    providerMetadata: {
      gateway: {
        provider: outcome.response.provider ?? null,
        generationId: outcome.response.id ?? null,
        cost: usage.cost ?? null,
        confidence,
        methods: outcome.methods,
        // As Vercel's gateway lists a decision fallback's attempts: each stage, what it cost, and what sent the request on.
        ...(cascade
          ? {
              routing: {
                modelAttempts: cascade.stages.map((s) => ({
                  modelId: s.model,
                  success: s.error === null,
                  ...(s.provider ? { provider: s.provider } : {}),
                  ...(s.id ? { generationId: s.id } : {}),
                  ...(s.usage ? { usage: { inputTokens: s.usage.input_tokens, outputTokens: s.usage.output_tokens }, cost: s.usage.cost ?? null } : {}),
                  ...(s.error ? { error: s.error } : {}),
                  ...(s.triggered_by ? { triggeredBy: s.triggered_by } : {}),
                })),
              },
            }
          : {}),
      },
    },
  };
}

const roundingOf = (r: Rounding) => ({ probabilityDecimals: r.probabilityDecimals, scoreDecimals: r.scoreDecimals });

/** The protocol's error types, as `@ai-sdk/gateway` reads them into its typed errors. */
export function gatewayErrorBody(error: GatewayError): { error: { message: string; type: string; param?: unknown; code?: string | number | null } } {
  const type =
    error.status === 401
      ? 'authentication_error'
      : error.status === 402
        ? 'insufficient_funds'
        : error.status === 403
          ? 'forbidden'
          : error.status === 404 && /^Model "/.test(error.message)
            ? 'model_not_found'
            : error.status === 404
              ? 'not_found'
              : error.status === 429
                ? 'rate_limit_exceeded'
                : error.status === 500
                  ? 'internal_server_error'
                  : error.status >= 500
                    ? 'failed_dependency'
                    : 'invalid_request_error';
  const modelId = type === 'model_not_found' ? /^Model "([^"]+)"/.exec(error.message)?.[1] : undefined;
  return { error: { message: error.message, type, ...(modelId ? { param: { modelId } } : {}), code: error.status } };
}
