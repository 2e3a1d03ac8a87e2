import { readSse } from '../sse';
import type { UpstreamResponse } from '../http';
import { StreamState, field, isObj, jsonEvent, num, providerLabel, str, type Obj } from '../stream-util';
import type { CallContext, ChatResult, UpstreamUsage } from '../types';
import { UpstreamError } from '../upstream-error';

const asObj = (v: unknown): Obj | undefined => (isObj(v) ? v : undefined);
const asArray = (v: unknown): unknown[] | undefined => (Array.isArray(v) ? v : undefined);

/** Finish reasons that mean the model (or its filters) declined to answer. */
const DECLINED = new Set(['SAFETY', 'RECITATION', 'PROHIBITED_CONTENT', 'BLOCKLIST', 'SPII', 'IMAGE_SAFETY']);

function candidateList(value: unknown, what: string): { token: string; logprob: number }[] {
  return (field(value, asArray, what) ?? []).map((c) => {
    if (!isObj(c) || num(c['logProbability']) === undefined) throw new UpstreamError('invalid_response', `malformed stream chunk: ${what}`);
    return { token: str(c['token']) ?? '', logprob: c['logProbability'] as number };
  });
}

/**
 * Reads a Gemini streamGenerateContent (alt=sse) stream. Thinking tokens (`thoughtsTokenCount`)
 * are billed as output and counted in it; thought parts are not answer text. A blocked prompt
 * (`promptFeedback.blockReason`) or a safety-type finish reason is 'refused'; `MAX_TOKENS` with no
 * text (a thinking model that spent its budget thinking) is 'incomplete'.
 */
export async function readGeminiStream(response: UpstreamResponse, ctx: CallContext, started: number, baseUrl: string): Promise<ChatResult> {
  const state = new StreamState(ctx, started);
  let usage: Obj | undefined;
  let blockReason: string | null = null;
  await readSse(response.body, ctx.signal, (data) => {
    const chunk = jsonEvent(data, 'stream chunk');
    const error = chunk['error'];
    if (error !== undefined && error !== null) throw new UpstreamError('server_error', `stream error: ${(isObj(error) && str(error['message'])) || 'unknown'}`);
    state.upstreamId ??= str(chunk['responseId']) ?? null;
    const feedback = field(chunk['promptFeedback'], asObj, 'promptFeedback');
    const blocked = feedback && field(feedback['blockReason'], str, 'promptFeedback.blockReason');
    if (blocked) blockReason = blocked;
    const candidate = field(chunk['candidates'], asArray, 'candidates')?.[0];
    if (candidate !== undefined) {
      if (!isObj(candidate)) throw new UpstreamError('invalid_response', 'malformed stream chunk: candidates[0]');
      const content = field(candidate['content'], asObj, 'content');
      for (const part of (content && field(content['parts'], asArray, 'content.parts')) ?? []) {
        if (!isObj(part)) throw new UpstreamError('invalid_response', 'malformed stream chunk: content.parts');
        if (part['thought'] === true) continue;
        state.addText(field(part['text'], str, 'part.text') ?? '');
      }
      const lp = field(candidate['logprobsResult'], asObj, 'logprobsResult');
      if (lp) {
        state.sawLogprobs = true;
        const topCandidates = field(lp['topCandidates'], asArray, 'logprobsResult.topCandidates') ?? [];
        candidateList(lp['chosenCandidates'], 'logprobsResult.chosenCandidates').forEach((chosen, i) => {
          const position = topCandidates[i];
          const top = isObj(position) ? candidateList(position['candidates'], 'logprobsResult.topCandidates') : [];
          state.tokens.push({ token: chosen.token, logprob: chosen.logprob, top });
        });
      }
      const finish = field(candidate['finishReason'], str, 'finishReason');
      if (finish) state.finishReason = finish;
    }
    usage = field(chunk['usageMetadata'], asObj, 'usageMetadata') ?? usage;
  });
  const candidates = usage && field(usage['candidatesTokenCount'], num, 'usageMetadata.candidatesTokenCount');
  const thoughts = usage && field(usage['thoughtsTokenCount'], num, 'usageMetadata.thoughtsTokenCount');
  const result: UpstreamUsage = {
    inputTokens: (usage && field(usage['promptTokenCount'], num, 'usageMetadata.promptTokenCount')) ?? null,
    // Thinking is billed at the output price: it is output.
    outputTokens: candidates === undefined && thoughts === undefined ? null : (candidates ?? 0) + (thoughts ?? 0),
    cachedInputTokens: (usage && field(usage['cachedContentTokenCount'], num, 'usageMetadata.cachedContentTokenCount')) ?? 0,
    cacheWriteTokens: 0,
    cost: null,
    ...(thoughts !== undefined && thoughts !== null ? { reasoningTokens: thoughts } : {}),
  };
  if (blockReason !== null)
    throw new UpstreamError('refused', `${providerLabel(baseUrl, 'Gemini')} declined: prompt blocked (${blockReason})`, { usage: result });
  if (state.finishReason !== null && DECLINED.has(state.finishReason)) {
    throw new UpstreamError('refused', `${providerLabel(baseUrl, 'Gemini')} declined: ${state.finishReason}`, { usage: result });
  }
  if (state.finishReason === null) throw new UpstreamError('invalid_response', 'stream ended without a finish reason');
  if (state.finishReason === 'MAX_TOKENS' && state.text === '') {
    throw new UpstreamError('incomplete', `${providerLabel(baseUrl, 'Gemini')} used the whole output budget without an answer (finishReason MAX_TOKENS)`, {
      usage: result,
    });
  }
  return state.result(response, result);
}
