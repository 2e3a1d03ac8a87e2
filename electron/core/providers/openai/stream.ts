import { FINISHED, readSse } from '../sse';
import type { UpstreamResponse } from '../http';
import { StreamState, field, isObj, jsonEvent, num, providerLabel, str, type Obj } from '../stream-util';
import type { CallContext, ChatResult, TokenAlternatives, UpstreamUsage } from '../types';
import { UpstreamError } from '../upstream-error';

type Top = TokenAlternatives['top'];

const asObj = (v: unknown): Obj | undefined => (isObj(v) ? v : undefined);
const asArray = (v: unknown): unknown[] | undefined => (Array.isArray(v) ? v : undefined);

/** OpenAI's `top_logprobs: [{token, logprob}]`. */
function topList(value: unknown): Top {
  const list = field(value, asArray, 'top_logprobs') ?? [];
  return list.map((t) => {
    if (!isObj(t) || typeof t['token'] !== 'string' || num(t['logprob']) === undefined)
      throw new UpstreamError('invalid_response', 'malformed stream chunk: top_logprobs');
    return { token: t['token'], logprob: t['logprob'] as number };
  });
}

/** Together's `top_logprobs: {token: logprob}`. */
function topMap(value: unknown): Top {
  const map = field(value, asObj, 'top_logprobs') ?? {};
  const top: Top = [];
  for (const [token, logprob] of Object.entries(map)) {
    if (num(logprob) === undefined) throw new UpstreamError('invalid_response', 'malformed stream chunk: top_logprobs');
    top.push({ token, logprob: logprob as number });
  }
  return top.sort((a, b) => b.logprob - a.logprob);
}

/**
 * Log-probabilities of one choice, in either shape OpenAI-compatible providers send: OpenAI's
 * `logprobs: {content: [{token, logprob, top_logprobs: [...]}]}`, or Together's `logprobs: <number>`
 * (or a list of numbers) with the choice's `top_logprobs` as a map {token: logprob} and the token
 * being the delta's text.
 */
function readLogprobs(choice: Obj, tokenText: string, state: StreamState): void {
  const logprobs = choice['logprobs'];
  if (logprobs === undefined || logprobs === null) return;
  if (isObj(logprobs)) {
    const content = field(logprobs['content'], asArray, 'logprobs.content');
    if (content) {
      state.sawLogprobs = true;
      for (const t of content) {
        if (!isObj(t) || typeof t['token'] !== 'string' || num(t['logprob']) === undefined)
          throw new UpstreamError('invalid_response', 'malformed stream chunk: logprobs.content');
        state.tokens.push({ token: t['token'], logprob: t['logprob'] as number, top: topList(t['top_logprobs']) });
      }
    }
    return;
  }
  const values = typeof logprobs === 'number' ? [logprobs] : Array.isArray(logprobs) ? logprobs : null;
  if (values === null) throw new UpstreamError('invalid_response', 'malformed stream chunk: logprobs');
  const tops = choice['top_logprobs'];
  state.sawLogprobs = true;
  values.forEach((value, i) => {
    if (num(value) === undefined) throw new UpstreamError('invalid_response', 'malformed stream chunk: logprobs');
    const top = Array.isArray(tops) ? topMap(tops[i]) : i === 0 ? topMap(tops) : [];
    // One chunk is one token on Together; a list spreads its text over the first position.
    state.tokens.push({ token: i === 0 ? tokenText : '', logprob: value as number, top });
  });
}

function readUsage(value: unknown): Obj | null {
  const usage = field(value, asObj, 'usage');
  if (!usage) return null;
  for (const key of ['prompt_tokens', 'completion_tokens'] as const) field(usage[key], num, `usage.${key}`);
  return usage;
}

/**
 * Reads an OpenAI-compatible chat completion stream: text, log-probabilities in OpenAI's or
 * Together's shape, usage, finish reason. A refusal (`delta.refusal`) or `content_filter` is an
 * answer the model declined ('refused'); `length` with no text is 'incomplete'.
 */
export async function readOpenAiStream(response: UpstreamResponse, ctx: CallContext, started: number, baseUrl: string): Promise<ChatResult> {
  const state = new StreamState(ctx, started);
  let refusal = '';
  let usage: Obj | null = null;
  let done = false;
  await readSse(response.body, ctx.signal, (data) => {
    if (data === '[DONE]') {
      done = true;
      return FINISHED;
    }
    const chunk = jsonEvent(data, 'stream chunk');
    const error = chunk['error'];
    if (error !== undefined && error !== null) {
      const message = typeof error === 'string' ? error : isObj(error) ? str(error['message']) : undefined;
      throw new UpstreamError('server_error', `stream error: ${message ?? 'unknown'}`);
    }
    state.upstreamId ??= str(chunk['id']) ?? null;
    const choices = field(chunk['choices'], asArray, 'choices');
    const choice = choices?.[0];
    if (choice !== undefined) {
      if (!isObj(choice)) throw new UpstreamError('invalid_response', 'malformed stream chunk: choices[0]');
      const delta = field(choice['delta'], asObj, 'delta');
      const content = delta ? (field(delta['content'], str, 'delta.content') ?? '') : '';
      state.addText(content);
      if (delta) refusal += field(delta['refusal'], str, 'delta.refusal') ?? '';
      readLogprobs(choice, content, state);
      const finish = field(choice['finish_reason'], str, 'finish_reason');
      if (finish !== undefined) state.finishReason = finish;
    }
    usage = readUsage(chunk['usage']) ?? usage;
  });
  if (!done && !usage) throw new UpstreamError('invalid_response', 'stream ended before the completion finished');
  const details = (usage ? asObj(usage['prompt_tokens_details']) : undefined) ?? {};
  const result: UpstreamUsage = {
    inputTokens: (usage && num(usage['prompt_tokens'])) ?? null,
    outputTokens: (usage && num(usage['completion_tokens'])) ?? null,
    cachedInputTokens: num(details['cached_tokens']) ?? 0,
    cacheWriteTokens: 0,
    cost: (usage && num(usage['cost'])) ?? null,
  };
  const reasoning = num(((usage ? asObj(usage['completion_tokens_details']) : undefined) ?? {})['reasoning_tokens']);
  if (reasoning !== undefined) result.reasoningTokens = reasoning;
  if (refusal !== '') throw new UpstreamError('refused', `${providerLabel(baseUrl, 'The provider')} declined: ${refusal}`, { usage: result });
  if (state.finishReason === 'content_filter')
    throw new UpstreamError('refused', `${providerLabel(baseUrl, 'The provider')} declined: content filter (finish_reason content_filter)`, { usage: result });
  if (state.finishReason === 'length' && state.text === '') {
    throw new UpstreamError('incomplete', `${providerLabel(baseUrl, 'The provider')} used the whole output budget without an answer (finish_reason length)`, {
      usage: result,
    });
  }
  return state.result(response, result);
}
