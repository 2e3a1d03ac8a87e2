import { z } from 'zod';
import { sseData } from '../sse';
import type { ChatResult, ProviderAdapter, TokenAlternatives } from '../types';
import { openaiBody, openaiHeaders } from './request';
import { UpstreamError } from '../upstream-error';

/** One streamed chunk of an OpenAI-compatible chat completion (only what we read). */
const TopLogprob = z.object({ token: z.string(), logprob: z.number() });
const ChunkSchema = z.object({
  id: z.string().optional(),
  choices: z
    .array(
      z.object({
        delta: z.object({ content: z.string().nullable().optional() }).partial().optional(),
        logprobs: z
          .object({ content: z.array(TopLogprob.extend({ top_logprobs: z.array(TopLogprob).optional() })).nullable().optional() })
          .nullable()
          .optional(),
        finish_reason: z.string().nullable().optional(),
      }),
    )
    .default([]),
  usage: z
    .object({
      prompt_tokens: z.number().int(),
      completion_tokens: z.number().int(),
      prompt_tokens_details: z.object({ cached_tokens: z.number().int().optional() }).nullable().optional(),
      cost: z.number().optional(),
    })
    .nullable()
    .optional(),
  error: z.object({ message: z.string().optional() }).optional(),
});

/** OpenAI-compatible chat completions (OpenAI, Groq, Together, vLLM, llama.cpp, Ollama, LM Studio…). */
export const openaiAdapter: ProviderAdapter = {
  wireFormat: 'openai',
  async chat(target, request, ctx): Promise<ChatResult> {
    const started = ctx.clock.now();
    const response = await ctx.http.postJson(`${target.baseUrl}/chat/completions`, openaiBody(target.model, request), { headers: openaiHeaders(target.apiKey), signal: ctx.signal });
    let text = '';
    let firstTokenMs: number | null = null;
    const tokens: TokenAlternatives[] = [];
    let sawLogprobs = false;
    let usage: z.infer<typeof ChunkSchema>['usage'] = null;
    let id: string | null = null;
    let done = false;
    for await (const { data } of sseData(response.body, ctx.signal)) {
      if (data === '[DONE]') {
        done = true;
        break;
      }
      let chunk: z.infer<typeof ChunkSchema>;
      try {
        chunk = ChunkSchema.parse(JSON.parse(data));
      } catch {
        throw new UpstreamError('invalid_response', 'malformed stream chunk');
      }
      if (chunk.error) throw new UpstreamError('server_error', `stream error: ${chunk.error.message ?? 'unknown'}`);
      id ??= chunk.id ?? null;
      const choice = chunk.choices[0];
      const delta = choice?.delta?.content ?? '';
      if (delta && firstTokenMs === null) {
        firstTokenMs = ctx.clock.now() - started;
        ctx.onFirstToken?.();
      }
      text += delta;
      for (const t of choice?.logprobs?.content ?? []) {
        sawLogprobs = true;
        tokens.push({ token: t.token, logprob: t.logprob, top: t.top_logprobs ?? [] });
      }
      if (chunk.usage) usage = chunk.usage;
    }
    if (!done && !usage) throw new UpstreamError('invalid_response', 'stream ended before the completion finished');
    return {
      text,
      tokens: sawLogprobs ? tokens : null,
      usage: {
        inputTokens: usage?.prompt_tokens ?? null,
        outputTokens: usage?.completion_tokens ?? null,
        cachedInputTokens: usage?.prompt_tokens_details?.cached_tokens ?? 0,
        cacheWriteTokens: 0,
        cost: usage?.cost ?? null,
      },
      timings: { ttfbMs: response.ttfbMs, firstTokenMs, totalMs: ctx.clock.now() - started },
      upstreamId: id,
    };
  },
};
