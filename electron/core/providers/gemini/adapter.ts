import { z } from 'zod';
import { sseData } from '../sse';
import type { ChatResult, ProviderAdapter, TokenAlternatives } from '../types';
import { geminiBody, geminiHeaders } from './request';
import { UpstreamError } from '../upstream-error';

const Candidate = z.object({ token: z.string(), logProbability: z.number() });
const ChunkSchema = z.object({
  responseId: z.string().optional(),
  candidates: z
    .array(
      z.object({
        content: z.object({ parts: z.array(z.object({ text: z.string().optional() })).default([]) }).optional(),
        logprobsResult: z
          .object({
            topCandidates: z.array(z.object({ candidates: z.array(Candidate).default([]) })).default([]),
            chosenCandidates: z.array(Candidate).default([]),
          })
          .optional(),
        finishReason: z.string().optional(),
      }),
    )
    .default([]),
  usageMetadata: z
    .object({ promptTokenCount: z.number().int().optional(), candidatesTokenCount: z.number().int().optional(), cachedContentTokenCount: z.number().int().optional() })
    .optional(),
  error: z.object({ message: z.string() }).optional(),
});

/** Google Gemini generateContent, streamed as server-sent events; log-probabilities when asked. */
export const geminiAdapter: ProviderAdapter = {
  wireFormat: 'gemini',
  async chat(target, request, ctx): Promise<ChatResult> {
    const started = ctx.clock.now();
    const url = `${target.baseUrl}/models/${encodeURIComponent(target.model)}:streamGenerateContent?alt=sse`;
    const response = await ctx.http.postJson(url, geminiBody(request), { headers: geminiHeaders(target.apiKey), signal: ctx.signal });
    let text = '';
    let firstTokenMs: number | null = null;
    const tokens: TokenAlternatives[] = [];
    let sawLogprobs = false;
    let usage: z.infer<typeof ChunkSchema>['usageMetadata'];
    let id: string | null = null;
    let finished = false;
    for await (const { data } of sseData(response.body, ctx.signal)) {
      let chunk: z.infer<typeof ChunkSchema>;
      try {
        chunk = ChunkSchema.parse(JSON.parse(data));
      } catch {
        throw new UpstreamError('invalid_response', 'malformed stream chunk');
      }
      if (chunk.error) throw new UpstreamError('server_error', `stream error: ${chunk.error.message}`);
      id ??= chunk.responseId ?? null;
      const candidate = chunk.candidates[0];
      const delta = (candidate?.content?.parts ?? []).map((p) => p.text ?? '').join('');
      if (delta && firstTokenMs === null) {
        firstTokenMs = ctx.clock.now() - started;
        ctx.onFirstToken?.();
      }
      text += delta;
      const lp = candidate?.logprobsResult;
      if (lp) {
        sawLogprobs = true;
        lp.chosenCandidates.forEach((chosen, i) => {
          const top = (lp.topCandidates[i]?.candidates ?? []).map((c) => ({ token: c.token, logprob: c.logProbability }));
          tokens.push({ token: chosen.token, logprob: chosen.logProbability, top });
        });
      }
      if (candidate?.finishReason) finished = true;
      if (chunk.usageMetadata) usage = chunk.usageMetadata;
    }
    if (!finished) throw new UpstreamError('invalid_response', 'stream ended without a finish reason');
    return {
      text,
      tokens: sawLogprobs ? tokens : null,
      usage: {
        inputTokens: usage?.promptTokenCount ?? null,
        outputTokens: usage?.candidatesTokenCount ?? null,
        cachedInputTokens: usage?.cachedContentTokenCount ?? 0,
        cacheWriteTokens: 0,
        cost: null,
      },
      timings: { ttfbMs: response.ttfbMs, firstTokenMs, totalMs: ctx.clock.now() - started },
      upstreamId: id,
    };
  },
};
