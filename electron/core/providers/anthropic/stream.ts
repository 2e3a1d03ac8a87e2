import { readSse } from '../sse';
import type { UpstreamResponse } from '../http';
import { StreamState, field, isObj, jsonEvent, num, providerLabel, str, type Obj } from '../stream-util';
import type { CallContext, ChatResult, UpstreamUsage } from '../types';
import { UpstreamError } from '../upstream-error';

const asObj = (v: unknown): Obj | undefined => (isObj(v) ? v : undefined);

/**
 * Reads an Anthropic Messages stream. `message_start` may come without usage; `message_delta.usage`
 * may carry input and cache tokens too, and then supersedes what `message_start` said. A
 * `stop_reason: "refusal"` is an answer the model declined ('refused'); `max_tokens` with no text
 * is 'incomplete'. Event types added after this was written are skipped, as the API asks of clients.
 */
export async function readAnthropicStream(response: UpstreamResponse, ctx: CallContext, started: number, baseUrl: string): Promise<ChatResult> {
  const state = new StreamState(ctx, started);
  let fresh: number | null = null;
  let cacheRead = 0;
  let cacheWrite = 0;
  let output: number | null = null;
  let stopped = false;
  let refusalDetail: string | null = null;
  const readUsage = (usage: Obj) => {
    fresh = field(usage['input_tokens'], num, 'usage.input_tokens') ?? fresh;
    cacheRead = field(usage['cache_read_input_tokens'], num, 'usage.cache_read_input_tokens') ?? cacheRead;
    cacheWrite = field(usage['cache_creation_input_tokens'], num, 'usage.cache_creation_input_tokens') ?? cacheWrite;
    output = field(usage['output_tokens'], num, 'usage.output_tokens') ?? output;
  };
  await readSse(response.body, ctx.signal, (data) => {
    const event = jsonEvent(data, 'stream event');
    switch (event['type']) {
      case 'message_start': {
        const message = field(event['message'], asObj, 'message');
        state.upstreamId = (message && str(message['id'])) ?? state.upstreamId;
        const usage = message && field(message['usage'], asObj, 'message.usage');
        if (usage) readUsage(usage);
        break;
      }
      case 'content_block_delta': {
        const delta = field(event['delta'], asObj, 'delta');
        if (delta) state.addText(field(delta['text'], str, 'delta.text') ?? '');
        break;
      }
      case 'message_delta': {
        const delta = field(event['delta'], asObj, 'delta');
        const stop = delta && field(delta['stop_reason'], str, 'delta.stop_reason');
        if (stop) state.finishReason = stop;
        const details = delta && asObj(delta['stop_details']);
        if (details) refusalDetail = str(details['explanation']) ?? str(details['category']) ?? null;
        const usage = field(event['usage'], asObj, 'usage');
        if (usage) readUsage(usage);
        break;
      }
      case 'message_stop':
        stopped = true;
        break;
      case 'error': {
        const error = asObj(event['error']) ?? {};
        const message = str(error['message']) ?? 'unknown';
        throw new UpstreamError(error['type'] === 'overloaded_error' ? 'overloaded' : 'server_error', `stream error: ${message}`);
      }
      default:
        break;
    }
  });
  if (!stopped) throw new UpstreamError('invalid_response', 'stream ended before message_stop');
  // Anthropic counts cached tokens apart from input_tokens; ours include them.
  const input = fresh === null ? null : fresh + cacheRead + cacheWrite;
  const usage: UpstreamUsage = { inputTokens: input, outputTokens: output, cachedInputTokens: cacheRead, cacheWriteTokens: cacheWrite, cost: null };
  if (state.finishReason === 'refusal') {
    throw new UpstreamError('refused', `${providerLabel(baseUrl, 'Anthropic')} declined: ${refusalDetail ?? (state.text || 'stop_reason refusal')}`, { usage });
  }
  if (state.finishReason === 'max_tokens' && state.text === '') {
    throw new UpstreamError('incomplete', `${providerLabel(baseUrl, 'Anthropic')} used the whole output budget without an answer (stop_reason max_tokens)`, {
      usage,
    });
  }
  return state.result(response, usage);
}
