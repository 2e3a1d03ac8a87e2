import { OpenAiDecisionReplySchema } from '../../../../shared/schemas/openai-decisions';
import type { DecideResult, ProviderAdapter, UpstreamUsage } from '../types';
import { nativeUrl, readNativeReply } from '../native-reply';
import { classifyOpenAiError } from '../openai/errors';
import { openaiHeaders } from '../openai/request';
import { UpstreamError } from '../upstream-error';
import { answersFromOpenAi, openAiInput, openAiQuestion } from './translate';

/**
 * A host of OpenAI's Decisions family (OpenAI's `/v1/decisions`, Fireworks' `/inference/v1/decisions`,
 * Vercel's gateway, Opper): the request translated to `input` + ordered questions, the reply's
 * answers mapped back to the caller's names with the host's numbers unchanged, a refusal kept per
 * question. Errors are OpenAI's error object. There is no listing here: OpenAI's `/models` does not
 * say which of its models answer Decisions, so they come from the bundled catalog or a catalog file.
 */
export const openAiDecisionsAdapter: ProviderAdapter = {
  wireFormat: 'openai-decisions',
  async decide(target, ask, ctx): Promise<DecideResult> {
    const host = target.host!;
    const started = ctx.clock.now();
    const body = { model: target.model, input: openAiInput(ask), questions: Object.entries(ask.questions).map(([name, q]) => openAiQuestion(name, q)) };
    const response = await ctx.http.postJson(nativeUrl(target.baseUrl, host.path, target.model), body, {
      headers: { ...openaiHeaders(target.apiKey), ...host.headers },
      signal: ctx.signal,
      classify: classifyOpenAiError,
    });
    const { reply, timings } = await readNativeReply(response, OpenAiDecisionReplySchema, ctx, started);
    let answers: DecideResult['answers'];
    try {
      answers = answersFromOpenAi(ask.questions, reply);
    } catch (error) {
      throw new UpstreamError('invalid_response', `the answers do not match the questions: ${(error as Error).message}`);
    }
    const details = reply.usage.input_tokens_details;
    const usage: UpstreamUsage = {
      inputTokens: reply.usage.input_tokens,
      outputTokens: reply.usage.output_tokens,
      cachedInputTokens: details?.cached_tokens ?? 0,
      cacheWriteTokens: details?.cache_write_tokens ?? 0,
      cost: null,
      ...(reply.usage.output_tokens_details?.reasoning_tokens !== undefined ? { reasoningTokens: reply.usage.output_tokens_details.reasoning_tokens } : {}),
    };
    return { answers, usage, timings };
  },
};
