import { sse, type Script } from './scripted-upstream';

/** Successful streamed answers in each provider's real wire format, with known contents. */
export const WIRE = {
  openai: (
    text: string,
    opts: { top?: { token: string; logprob: number }[]; usage?: { prompt: number; completion: number; cached?: number } } = {},
  ): Script => ({
    kind: 'respond',
    status: 200,
    headers: { 'content-type': 'text/event-stream' },
    chunks: sse([
      {
        id: 'chatcmpl-1',
        object: 'chat.completion.chunk',
        choices: [
          {
            index: 0,
            delta: { role: 'assistant', content: text },
            logprobs: opts.top ? { content: [{ token: text, logprob: opts.top[0]?.logprob ?? 0, bytes: null, top_logprobs: opts.top }] } : null,
            finish_reason: null,
          },
        ],
      },
      { id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
      {
        id: 'chatcmpl-1',
        object: 'chat.completion.chunk',
        choices: [],
        usage: {
          prompt_tokens: opts.usage?.prompt ?? 12,
          completion_tokens: opts.usage?.completion ?? 1,
          total_tokens: (opts.usage?.prompt ?? 12) + (opts.usage?.completion ?? 1),
          prompt_tokens_details: { cached_tokens: opts.usage?.cached ?? 0 },
        },
      },
    ]),
  }),
  anthropic: (text: string, usage = { input: 20, cacheRead: 8, cacheWrite: 0, output: 3 }): Script => ({
    kind: 'respond',
    status: 200,
    headers: { 'content-type': 'text/event-stream' },
    chunks: [
      `event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', content: [], model: 'claude-x', usage: { input_tokens: usage.input, cache_read_input_tokens: usage.cacheRead, cache_creation_input_tokens: usage.cacheWrite, output_tokens: 1 } } })}\n\n`,
      `event: content_block_start\ndata: ${JSON.stringify({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } })}\n\n`,
      `event: ping\ndata: ${JSON.stringify({ type: 'ping' })}\n\n`,
      `event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } })}\n\n`,
      `event: content_block_stop\ndata: ${JSON.stringify({ type: 'content_block_stop', index: 0 })}\n\n`,
      `event: message_delta\ndata: ${JSON.stringify({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: usage.output } })}\n\n`,
      `event: message_stop\ndata: ${JSON.stringify({ type: 'message_stop' })}\n\n`,
    ],
  }),
  gemini: (text: string, opts: { top?: { token: string; logProbability: number }[] } = {}): Script => ({
    kind: 'respond',
    status: 200,
    headers: { 'content-type': 'text/event-stream' },
    chunks: sse(
      [
        {
          responseId: 'resp-1',
          candidates: [
            {
              content: { role: 'model', parts: [{ text }] },
              finishReason: 'STOP',
              ...(opts.top
                ? {
                    logprobsResult: {
                      topCandidates: [{ candidates: opts.top }],
                      chosenCandidates: [{ token: text, logProbability: opts.top[0]?.logProbability ?? 0 }],
                    },
                  }
                : {}),
            },
          ],
          usageMetadata: { promptTokenCount: 30, candidatesTokenCount: 1, cachedContentTokenCount: 16, totalTokenCount: 31 },
        },
      ],
      false,
    ),
  }),
};

/** Error bodies as each provider writes them. */
export const ERROR_BODY = {
  openai: (message: string) => JSON.stringify({ error: { message, type: 'invalid_request_error', param: null, code: null } }),
  anthropic: (message: string, type = 'invalid_request_error') => JSON.stringify({ type: 'error', error: { type, message } }),
  gemini: (message: string, code = 400) => JSON.stringify({ error: { code, message, status: 'INVALID_ARGUMENT' } }),
};
