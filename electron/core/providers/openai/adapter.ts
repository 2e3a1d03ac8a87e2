import type { ChatResult, ProviderAdapter } from '../types';
import { openaiCall } from './request';
import { classifyOpenAiError } from './errors';
import { readOpenAiStream } from './stream';

/** OpenAI-compatible chat completions (OpenAI, Groq, Together, vLLM, llama.cpp, Ollama, LM Studio…). */
export const openaiAdapter: ProviderAdapter = {
  wireFormat: 'openai',
  async chat(target, request, ctx): Promise<ChatResult> {
    const started = ctx.clock.now();
    const call = openaiCall(target, request);
    const response = await ctx.http.postJson(call.url, call.body, { headers: call.headers, signal: ctx.signal, classify: classifyOpenAiError });
    return readOpenAiStream(response, ctx, started, target.baseUrl);
  },
};
