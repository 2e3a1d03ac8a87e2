import type { ChatResult, ProviderAdapter } from '../types';
import { geminiCall } from './request';
import { classifyGeminiError } from './errors';
import { readGeminiStream } from './stream';

/** Google Gemini generateContent, streamed as server-sent events; log-probabilities when asked. */
export const geminiAdapter: ProviderAdapter = {
  wireFormat: 'gemini',
  async chat(target, request, ctx): Promise<ChatResult> {
    const started = ctx.clock.now();
    const call = geminiCall(target, request);
    const response = await ctx.http.postJson(call.url, call.body, { headers: call.headers, signal: ctx.signal, classify: classifyGeminiError });
    return readGeminiStream(response, ctx, started, target.baseUrl);
  },
};
