import { z } from 'zod';
import { namedRecord } from './key';

/**
 * OpenAI's Decisions wire (`POST /v1/decisions`), as `openai` 7.55.0 types it
 * (`resources/decisions.d.ts`, `resources/shared.d.ts`): `input` plus ordered questions of type
 * `predicate`, `choice` or `score`; answers in question order, any of them a `refusal`. Verdict
 * reads it from hosts of this family (OpenAI, Fireworks' `/inference/v1/decisions`, Vercel's
 * gateway, Opper) and serves it at `/api/v1/decisions`.
 */

const probability = z.number().min(0).max(1);
/** Choice values are typed: the string "true" and the boolean true are distinct. */
export const ChoiceValueSchema = z.union([z.string(), z.boolean()]);

const tokenCount = z.number().int().nonnegative();

export const OpenAiPredicateAnswerSchema = z.object({ type: z.literal('predicate'), name: z.string().nullable(), probability });
export const OpenAiChoiceAnswerSchema = z.object({
  type: z.literal('choice'),
  name: z.string().nullable(),
  choice: ChoiceValueSchema,
  confidence: probability,
  probabilities: z.array(z.object({ value: ChoiceValueSchema, probability })),
});
export const OpenAiScoreAnswerSchema = z.object({
  type: z.literal('score'),
  name: z.string().nullable(),
  score: z.number(),
  confidence: probability,
  probabilities: z.array(z.object({ value: z.number().int().nonnegative(), label: z.string(), probability })),
});
export const OpenAiRefusalSchema = z.object({ type: z.literal('refusal'), name: z.string().nullable() });

export const OpenAiAnswerSchema = z.discriminatedUnion('type', [
  OpenAiPredicateAnswerSchema,
  OpenAiChoiceAnswerSchema,
  OpenAiScoreAnswerSchema,
  OpenAiRefusalSchema,
]);
export type OpenAiAnswer = z.infer<typeof OpenAiAnswerSchema>;

export const OpenAiDecisionUsageSchema = z.object({
  input_tokens: tokenCount,
  input_tokens_details: z.object({ cached_tokens: tokenCount, cache_write_tokens: tokenCount }),
  output_tokens: tokenCount,
  output_tokens_details: z.object({ reasoning_tokens: tokenCount }),
  total_tokens: tokenCount,
});

/** A Decision as OpenAI's reference types it: every field required. */
export const OpenAiDecisionSchema = z.object({
  model: z.string(),
  answers: z.array(OpenAiAnswerSchema),
  usage: OpenAiDecisionUsageSchema,
});
export type OpenAiDecision = z.infer<typeof OpenAiDecisionSchema>;

/**
 * A Decision as hosts of the family send it: what a reader needs is required (answers, their
 * numbers, the token counts), what only some hosts send (confidence, usage details) may be
 * missing. Fireworks' copy of the shape documents no usage details, for example.
 */
export const OpenAiDecisionReplySchema = z.object({
  model: z.string().optional(),
  answers: z.array(
    z.discriminatedUnion('type', [
      OpenAiPredicateAnswerSchema,
      OpenAiChoiceAnswerSchema.extend({ confidence: probability.optional() }),
      OpenAiScoreAnswerSchema.extend({ confidence: probability.optional() }),
      OpenAiRefusalSchema,
    ]),
  ),
  usage: z.object({
    input_tokens: tokenCount,
    input_tokens_details: z.object({ cached_tokens: tokenCount.optional(), cache_write_tokens: tokenCount.optional() }).nullish(),
    output_tokens: tokenCount,
    output_tokens_details: z.object({ reasoning_tokens: tokenCount.optional() }).nullish(),
  }),
});
export type OpenAiDecisionReply = z.infer<typeof OpenAiDecisionReplySchema>;

/** OpenAI's error object (`ErrorObject`), sent as `{error: …}` with the HTTP status. */
export const OpenAiErrorBodySchema = z.object({
  error: z.object({ message: z.string(), type: z.string(), param: z.string().nullable(), code: z.string().nullable() }),
});
export type OpenAiErrorBody = z.infer<typeof OpenAiErrorBodySchema>;

/* ----- The request, as a server of this shape takes it ----- */

export const MAX_OPENAI_QUESTIONS = 400;
export const MAX_OPENAI_CHOICES = 255;
export const MAX_SAFETY_IDENTIFIER = 128;

const breakpoint = z.strictObject({ mode: z.literal('explicit') }).nullish();
const detail = z.enum(['low', 'high', 'auto', 'original']).nullish();
export const OpenAiInputTextSchema = z.strictObject({ type: z.literal('input_text'), text: z.string(), prompt_cache_breakpoint: breakpoint });
export const OpenAiInputImageSchema = z.strictObject({ type: z.literal('input_image'), image_url: z.string(), detail, prompt_cache_breakpoint: breakpoint });
const jsonObject = namedRecord(z.string(), z.unknown());
export const OpenAiInputJsonSchema = z.strictObject({ type: z.literal('input_json'), data: z.union([jsonObject, z.array(jsonObject)]) });
const inputPart = z.discriminatedUnion('type', [OpenAiInputTextSchema, OpenAiInputImageSchema, OpenAiInputJsonSchema]);
const textOrParts = <T extends z.ZodType>(part: T) => z.union([z.string(), z.array(part)]);
const message = <R extends string, T extends z.ZodType>(role: R, part: T) =>
  z.strictObject({ role: z.literal(role), type: z.literal('message').optional(), content: textOrParts(part) });
const callStatus = z.enum(['in_progress', 'completed', 'incomplete']).nullish();
const toolOutput = textOrParts(z.discriminatedUnion('type', [OpenAiInputTextSchema, OpenAiInputImageSchema]));
/** A tool call sent back as input (a function's or a custom tool's): one envelope, the call's own text in `payload`. */
const toolCall = <T extends string, P extends z.ZodRawShape>(type: T, payload: P) =>
  z.strictObject({
    type: z.literal(type),
    call_id: z.string(),
    name: z.string(),
    ...payload,
    id: z.string().nullish(),
    namespace: z.string().nullish(),
    status: callStatus,
  });
/** What the caller's tool gave back for a call of `call_id`. */
const toolCallOutput = <T extends string>(type: T) =>
  z.strictObject({ type: z.literal(type), call_id: z.string(), output: toolOutput, id: z.string().nullish(), status: callStatus });

/** One item of `input`: a message (user, developer, system, assistant) or a tool call and its output. */
export const OpenAiInputItemSchema = z.union([
  message('user', inputPart),
  message('developer', OpenAiInputTextSchema),
  message('system', OpenAiInputTextSchema),
  z.strictObject({
    role: z.literal('assistant'),
    type: z.literal('message').optional(),
    phase: z.enum(['commentary', 'final_answer']).nullish(),
    content: textOrParts(
      z.discriminatedUnion('type', [
        z.strictObject({ type: z.literal('output_text'), text: z.string() }),
        z.strictObject({ type: z.literal('refusal'), refusal: z.string() }),
      ]),
    ),
  }),
  toolCall('function_call', { arguments: z.string() }),
  toolCallOutput('function_call_output'),
  toolCall('custom_tool_call', { input: z.string() }),
  toolCallOutput('custom_tool_call_output'),
]);
export type OpenAiInputItem = z.infer<typeof OpenAiInputItemSchema>;

const questionInstructions = textOrParts(
  z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('input_text'), text: z.string() }),
    z.strictObject({ type: z.literal('input_image'), image_url: z.string(), detail }),
    OpenAiInputJsonSchema,
  ]),
);
const questionName = z.string().min(1, 'a question name must not be empty').optional();

export const OpenAiPredicateQuestionSchema = z.strictObject({ type: z.literal('predicate'), name: questionName, instructions: questionInstructions });
export const OpenAiChoiceQuestionSchema = z.strictObject({
  type: z.literal('choice'),
  name: questionName,
  instructions: questionInstructions,
  choices: z
    .array(z.strictObject({ value: ChoiceValueSchema, description: z.string().optional() }))
    .min(2, 'a choice question needs between 2 and 255 choices')
    .max(MAX_OPENAI_CHOICES, 'a choice question needs between 2 and 255 choices')
    // Typed: "true" and true are two values.
    .refine((choices) => new Set(choices.map((c) => `${typeof c.value}:${String(c.value)}`)).size === choices.length, 'each choice value must be unique'),
});
export const OpenAiScoreQuestionSchema = z.strictObject({
  type: z.literal('score'),
  name: questionName,
  instructions: questionInstructions,
  levels: z.array(z.strictObject({ label: z.string(), description: z.string().optional() })).min(2, 'a score question needs at least 2 levels'),
});
export const OpenAiQuestionSchema = z.discriminatedUnion('type', [OpenAiPredicateQuestionSchema, OpenAiChoiceQuestionSchema, OpenAiScoreQuestionSchema]);
export type OpenAiQuestion = z.infer<typeof OpenAiQuestionSchema>;

/** `DecisionCreateParams` of `openai` 7.55.0, with the limits its documentation states. */
export const OpenAiDecisionRequestSchema = z.strictObject({
  model: z.string().min(1, 'model must not be empty'),
  input: z.union([z.string(), z.array(OpenAiInputItemSchema)]),
  questions: z
    .array(OpenAiQuestionSchema)
    .min(1, 'ask between 1 and 400 questions')
    .max(MAX_OPENAI_QUESTIONS, 'ask between 1 and 400 questions')
    .refine((qs) => {
      const names = qs.flatMap((q) => (q.name === undefined ? [] : [q.name]));
      return new Set(names).size === names.length;
    }, 'question names must be unique'),
  prompt_cache_key: z.string().nullish(),
  prompt_cache_options: z.strictObject({ mode: z.enum(['implicit', 'explicit']).nullish(), ttl: z.literal('30m').nullish() }).nullish(),
  safety_identifier: z.string().max(MAX_SAFETY_IDENTIFIER, `safety_identifier is at most ${MAX_SAFETY_IDENTIFIER} characters`).nullish(),
});
export type OpenAiDecisionRequest = z.infer<typeof OpenAiDecisionRequestSchema>;
