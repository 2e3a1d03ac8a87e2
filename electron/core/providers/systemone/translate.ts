import { z } from 'zod';
import { AnswerSchema } from '../../../../shared/schemas/answer';
import type { Guidance } from '../../../../shared/schemas/guidance';
import type { Question } from '../../../../shared/schemas/question';
import type { DecisionHost } from '../decision-host';
import type { ContentPart, NativeAnswer, NativeAsk, UpstreamUsage } from '../types';

/**
 * The System One family speaks the spec's own shape (`state` + named questions, answers by name),
 * so little is translated, and only where a host documents its own way:
 *
 * - images: `image_url` parts inside an array state (Perplexity, OpenRouter), a top-level `images`
 *   array of data URLs with the images taken out of the state (Cloudflare, Liquid), or none;
 * - text items of an array state as plain strings (OpenRouter reads `{type: "text"}` parts as JSON);
 * - guidance as text where a host takes only text;
 * - Cloudflare's reply inside `{result, success, errors, messages}`.
 *
 * Answers pass through with the host's numbers as they are.
 */

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const dataUrl = (part: Extract<ContentPart, { type: 'image' }>) => `data:${part.mediaType};base64,${part.base64}`;

/** The request body for a System One host: model, state and questions, and the images as the host takes them. */
export function systemOneBody(model: string, ask: NativeAsk, host: DecisionHost): Record<string, unknown> {
  const body: Record<string, unknown> = { model, state: ask.state, questions: questionsFor(ask.questions, host) };
  // A host that takes OpenRouter's assets map gets it as sent; any other gets them as it takes images, each after its name.
  const named = ask.assets.length > 0 && !host.assets ? ask.assets : [];
  if (ask.assets.length > 0 && host.assets)
    body['assets'] = Object.fromEntries(
      ask.assets.map((a) => [a.key, { format: a.image.mediaType === 'image/png' ? 'png' : 'jpeg', data_base64: a.image.base64 }]),
    );
  if (!Array.isArray(ask.state) && named.length === 0) return body;
  const images: string[] = [];
  const state: unknown[] = [];
  const items: unknown[] = Array.isArray(ask.state) ? ask.state : [ask.state];
  const parts = Array.isArray(ask.state) ? ask.parts : [];
  items.forEach((item, i) => {
    // An array state maps item by item onto its parts (stateParts keeps one part per item).
    const part = parts[i];
    if (part?.type === 'image') {
      // The image as it will be judged (upright), not as it was sent.
      if (host.images === 'images-array') images.push(dataUrl(part));
      else state.push({ type: 'image_url', image_url: { url: dataUrl(part) } });
    } else if (host.textItems === 'strings' && isObject(item) && item['type'] === 'text' && typeof item['text'] === 'string') {
      state.push(item['text']);
    } else state.push(item);
  });
  for (const { key, image } of named) {
    state.push(`Image \`${key}\`:`);
    if (host.images === 'images-array') images.push(dataUrl(image));
    else state.push({ type: 'image_url', image_url: { url: dataUrl(image) } });
  }
  body['state'] = state;
  if (images.length > 0) body['images'] = images;
  return body;
}

function questionsFor(questions: Readonly<Record<string, Question>>, host: DecisionHost): Record<string, Question> {
  if (host.guidance === 'structured') return questions as Record<string, Question>;
  const text = (g: Guidance): string => (typeof g === 'string' ? g : JSON.stringify(g));
  return Object.fromEntries(
    Object.entries(questions).map(([name, q]): [string, Question] => {
      switch (q.type) {
        case 'noul':
          return [
            name,
            { ...q, instructions: text(q.instructions), ...(q.criteria ? { criteria: { true: text(q.criteria.true), false: text(q.criteria.false) } } : {}) },
          ];
        case 'choice':
          return [
            name,
            {
              ...q,
              instructions: text(q.instructions),
              criteria: Object.fromEntries(Object.entries(q.criteria).map(([k, v]) => [k, v === null ? null : text(v)])),
            },
          ];
        case 'score':
          return [name, { ...q, instructions: text(q.instructions), criteria: q.criteria.map(text) }];
        case 'box':
          return [name, { ...q, instructions: text(q.instructions) }];
      }
    }),
  );
}

const tokenCount = z.number().int().nonnegative();

/**
 * A System One reply as the family's hosts send it. What every host sends is required (the answers,
 * the token counts); what some add is read when present (OpenRouter's `cost` and cached tokens).
 */
export const SystemOneReplySchema = z.object({
  model: z.string().optional(),
  id: z.string().optional(),
  answers: z.record(z.string(), AnswerSchema),
  usage: z.object({
    input_tokens: tokenCount,
    output_tokens: tokenCount,
    cost: z.number().nonnegative().optional(),
    input_tokens_details: z.object({ cached_tokens: tokenCount.optional(), cache_write_tokens: tokenCount.optional() }).nullish(),
  }),
});
export type SystemOneReply = z.infer<typeof SystemOneReplySchema>;

/** Cloudflare's envelope around a reply (the reply itself is `result`). */
export const CloudflareEnvelopeSchema = z.object({
  result: z.unknown(),
  success: z.boolean(),
  errors: z.array(z.object({ code: z.number().optional(), message: z.string() })).default([]),
});

/** The answers by name, as the host gave them. */
export const answersFromSystemOne = (reply: SystemOneReply): Record<string, NativeAnswer> => reply.answers;

/** What the call used: tokens as the host counted them, cached ones where it says, its own cost where it gives one. */
export function usageFromSystemOne(reply: SystemOneReply): UpstreamUsage {
  const details = reply.usage.input_tokens_details;
  return {
    inputTokens: reply.usage.input_tokens,
    outputTokens: reply.usage.output_tokens,
    cachedInputTokens: details?.cached_tokens ?? 0,
    cacheWriteTokens: details?.cache_write_tokens ?? 0,
    cost: reply.usage.cost ?? null,
  };
}
