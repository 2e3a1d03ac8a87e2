import { z } from 'zod';
import { sseData } from '../sse';
import type { ChatResult, ProviderAdapter } from '../types';
import { anthropicBody, anthropicHeaders } from './request';
import { UpstreamError } from '../upstream-error';

const EventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('message_start'),
    message: z.object({
      id: z.string(),
      usage: z.object({
        input_tokens: z.number().int(),
        output_tokens: z.number().int().optional(),
        cache_read_input_tokens: z.number().int().nullable().optional(),
        cache_creation_input_tokens: z.number().int().nullable().optional(),
      }),
    }),
  }),
  z.object({ type: z.literal('content_block_delta'), delta: z.object({ type: z.string(), text: z.string().optional() }) }),
  z.object({ type: z.literal('message_delta'), usage: z.object({ output_tokens: z.number().int() }) }),
  z.object({ type: z.literal('message_stop') }),
  z.object({ type: z.literal('content_block_start') }),
  z.object({ type: z.literal('content_block_stop') }),
  z.object({ type: z.literal('ping') }),
  z.object({ type: z.literal('error'), error: z.object({ type: z.string(), message: z.string() }) }),
]);

/** Anthropic Messages API, streamed. It has no token log-probabilities. */
export const anthropicAdapter: ProviderAdapter = {
  wireFormat: 'anthropic',
  async chat(target, request, ctx): Promise<ChatResult> {
    const started = ctx.clock.now();
    const response = await ctx.http.postJson(`${target.baseUrl}/messages`, anthropicBody(target.model, request), { headers: anthropicHeaders(target.apiKey), signal: ctx.signal });
    let text = '';
    let firstTokenMs: number | null = null;
    let id: string | null = null;
    let input: number | null = null;
    let cacheRead = 0;
    let cacheWrite = 0;
    let output: number | null = null;
    let stopped = false;
    for await (const { data } of sseData(response.body, ctx.signal)) {
      let raw: unknown;
      try {
        raw = JSON.parse(data);
      } catch {
        throw new UpstreamError('invalid_response', 'malformed stream event');
      }
      // Event types added after this adapter was written are skipped, as the API asks of clients.
      const parsed = EventSchema.safeParse(raw);
      if (!parsed.success) continue;
      const event = parsed.data;
      if (event.type === 'message_start') {
        id = event.message.id;
        cacheRead = event.message.usage.cache_read_input_tokens ?? 0;
        cacheWrite = event.message.usage.cache_creation_input_tokens ?? 0;
        // Anthropic counts cached tokens apart from input_tokens; ours include them.
        input = event.message.usage.input_tokens + cacheRead + cacheWrite;
      } else if (event.type === 'content_block_delta' && event.delta.text) {
        if (firstTokenMs === null) {
          firstTokenMs = ctx.clock.now() - started;
          ctx.onFirstToken?.();
        }
        text += event.delta.text;
      } else if (event.type === 'message_delta') {
        output = event.usage.output_tokens;
      } else if (event.type === 'message_stop') {
        stopped = true;
      } else if (event.type === 'error') {
        throw new UpstreamError(event.error.type === 'overloaded_error' ? 'overloaded' : 'server_error', `stream error: ${event.error.message}`);
      }
    }
    if (!stopped) throw new UpstreamError('invalid_response', 'stream ended before message_stop');
    return {
      text,
      tokens: null,
      usage: { inputTokens: input, outputTokens: output, cachedInputTokens: cacheRead, cacheWriteTokens: cacheWrite, cost: null },
      timings: { ttfbMs: response.ttfbMs, firstTokenMs, totalMs: ctx.clock.now() - started },
      upstreamId: id,
    };
  },
};
