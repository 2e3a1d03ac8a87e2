import type { ChatResult, ProviderAdapter } from '../types';
import { anthropicCall } from './request';
import { classifyAnthropicError } from './errors';
import { readAnthropicStream } from './stream';

/** Anthropic Messages API, streamed. It has no token log-probabilities. */
export const anthropicAdapter: ProviderAdapter = {
  wireFormat: 'anthropic',
  async chat(target, request, ctx): Promise<ChatResult> {
    const started = ctx.clock.now();
    const call = anthropicCall(target, request);
    const response = await ctx.http.postJson(call.url, call.body, { headers: call.headers, signal: ctx.signal, classify: classifyAnthropicError });
    return readAnthropicStream(response, ctx, started, target.baseUrl);
  },
};
