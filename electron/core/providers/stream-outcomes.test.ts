import { scriptedUpstreamSuite } from '../../test-support/upstream-suite';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../clock';
import { sse } from '../../test-support/scripted-upstream';
import { readAnthropicStream } from './anthropic/stream';
import { readGeminiStream } from './gemini/stream';
import { readOpenAiStream } from './openai/stream';
import type { CallContext, ChatResult } from './types';
import { UpstreamError } from './upstream-error';

/**
 * How each stream loop ends for the finish reasons no recorded fixture covers: filters, exhausted
 * output budgets with and without text, Together's top_logprobs map, chunks of the wrong shape.
 * Chunks follow the providers' documented shapes.
 */

const suite = scriptedUpstreamSuite();
const http = suite.http;

async function read(reader: typeof readOpenAiStream, chunks: string[], baseUrl?: string): Promise<ChatResult | UpstreamError> {
  suite.upstream.script({ kind: 'respond', status: 200, headers: { 'content-type': 'text/event-stream' }, chunks });
  const ctx: CallContext = { http, clock: systemClock, signal: AbortSignal.timeout(2_000) };
  const response = await http.postJson(`${suite.upstream.url}/v1/x`, {}, { headers: {}, signal: ctx.signal });
  return reader(response, ctx, systemClock.now(), baseUrl ?? suite.upstream.url).catch((e: unknown) => {
    if (e instanceof UpstreamError) return e;
    throw e;
  });
}

const failed = (outcome: ChatResult | UpstreamError): UpstreamError => {
  expect(outcome).toBeInstanceOf(UpstreamError);
  return outcome as UpstreamError;
};
const succeeded = (outcome: ChatResult | UpstreamError): ChatResult => {
  if (outcome instanceof UpstreamError) expect.fail(`${outcome.kind}: ${outcome.message}`);
  return outcome;
};

const openaiChunk = (delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown> = {}) => ({
  id: 'c1',
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta, logprobs: null, finish_reason: finish, ...extra }],
});
const openaiUsage = { id: 'c1', object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 12, completion_tokens: 64, total_tokens: 76 } };

describe('OpenAI-compatible stream endings', () => {
  it('content_filter is refused, naming the provider from its host', async () => {
    const error = failed(
      await read(
        readOpenAiStream,
        sse([openaiChunk({ role: 'assistant', content: '' }, null), openaiChunk({}, 'content_filter'), openaiUsage]),
        'https://api.openai.com/v1',
      ),
    );
    expect(error.kind).toBe('refused');
    expect(error.message).toBe('OpenAI declined: content filter (finish_reason content_filter)');
    expect(error.details.usage).toMatchObject({ inputTokens: 12, outputTokens: 64 });
  });

  it('length with no text is incomplete; with text it is an answer whose finishReason says length', async () => {
    const empty = failed(await read(readOpenAiStream, sse([openaiChunk({ role: 'assistant', content: '' }, null), openaiChunk({}, 'length'), openaiUsage])));
    expect(empty.kind).toBe('incomplete');
    expect(empty.message).toMatch(/finish_reason length/);
    const some = succeeded(
      await read(readOpenAiStream, sse([openaiChunk({ role: 'assistant', content: 'Ye' }, null), openaiChunk({}, 'length'), openaiUsage])),
    );
    expect(some.text).toBe('Ye');
    expect(some.finishReason).toBe('length');
  });

  it('answers at [DONE] even when the provider keeps the response open after it', async () => {
    // The whole stream, [DONE] included, then the connection stalls: the answer must not wait for it.
    suite.upstream.script({
      kind: 'stall-after-first-chunk',
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      chunks: [sse([openaiChunk({ role: 'assistant', content: 'Yes' }, 'stop'), openaiUsage]).join('')],
    });
    const ctx: CallContext = { http, clock: systemClock, signal: AbortSignal.timeout(2_000) };
    const response = await http.postJson(`${suite.upstream.url}/v1/x`, {}, { headers: {}, signal: ctx.signal });
    const result = succeeded(await readOpenAiStream(response, ctx, systemClock.now(), suite.upstream.url).catch((e: unknown) => e as UpstreamError));
    expect(result.text).toBe('Yes');
    expect(ctx.signal.aborted).toBe(false);
  });

  it("Together's top_logprobs map becomes the position's alternatives, most likely first", async () => {
    const chunks = sse([
      {
        id: 't1',
        object: 'chat.completion.chunk',
        choices: [
          {
            index: 0,
            text: 'Yes',
            logprobs: -0.1,
            top_logprobs: { No: -2.4, Yes: -0.1, Maybe: -4 },
            delta: { token_id: 9642, role: 'assistant', content: 'Yes' },
            finish_reason: null,
          },
        ],
        usage: null,
      },
      {
        id: 't1',
        object: 'chat.completion.chunk',
        choices: [
          {
            index: 0,
            text: '',
            logprobs: [-0.01],
            top_logprobs: [{ '</s>': -0.01 }],
            delta: { token_id: 2, role: 'assistant', content: '' },
            finish_reason: 'eos',
          },
        ],
        usage: { prompt_tokens: 20, completion_tokens: 2, total_tokens: 22 },
      },
    ]);
    const result = succeeded(await read(readOpenAiStream, chunks));
    expect(result.tokens).toEqual([
      {
        token: 'Yes',
        logprob: -0.1,
        top: [
          { token: 'Yes', logprob: -0.1 },
          { token: 'No', logprob: -2.4 },
          { token: 'Maybe', logprob: -4 },
        ],
      },
      { token: '', logprob: -0.01, top: [{ token: '</s>', logprob: -0.01 }] },
    ]);
    expect(result.finishReason).toBe('eos');
  });

  it.each([
    ['choices is not a list', { choices: {} }, /choices/],
    ['delta.content is a number', openaiChunk({ content: 7 }, null), /delta\.content/],
    ['a logprob is a string', openaiChunk({ content: 'x' }, null, { logprobs: { content: [{ token: 'x', logprob: '-1' }] } }), /logprobs\.content/],
    ['top_logprobs map holds a string', openaiChunk({ content: 'x' }, null, { logprobs: -1, top_logprobs: { x: 'a' } }), /top_logprobs/],
    ['usage.prompt_tokens is a string', { choices: [], usage: { prompt_tokens: '1', completion_tokens: 1 } }, /usage\.prompt_tokens/],
    ['a chunk is a list', [1, 2], /not a JSON object/],
  ])('%s is an invalid response naming the field', async (_name, chunk, message) => {
    const error = failed(await read(readOpenAiStream, sse([chunk])));
    expect(error.kind).toBe('invalid_response');
    expect(error.message).toMatch(message);
  });
});

const anthropicEvents = (stop: string, text: string) => [
  `event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', content: [], usage: { input_tokens: 30, cache_read_input_tokens: 100, output_tokens: 1 } } })}\n\n`,
  ...(text ? [`event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } })}\n\n`] : []),
  `event: message_delta\ndata: ${JSON.stringify({ type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 16 } })}\n\n`,
  `event: message_stop\ndata: ${JSON.stringify({ type: 'message_stop' })}\n\n`,
];

describe('Anthropic stream endings', () => {
  it('max_tokens with no text is incomplete; with text an answer', async () => {
    const empty = failed(await read(readAnthropicStream, anthropicEvents('max_tokens', '')));
    expect(empty.kind).toBe('incomplete');
    expect(empty.details.usage).toMatchObject({ inputTokens: 130, outputTokens: 16, cachedInputTokens: 100 });
    const some = succeeded(await read(readAnthropicStream, anthropicEvents('max_tokens', '{"p":')));
    expect(some.finishReason).toBe('max_tokens');
    expect(some.text).toBe('{"p":');
  });

  it('a refusal without stop_details names the stop reason', async () => {
    const error = failed(await read(readAnthropicStream, anthropicEvents('refusal', '')));
    expect(error.kind).toBe('refused');
    expect(error.message).toBe('Anthropic declined: stop_reason refusal');
  });

  it('an unknown event type is skipped; a known one with a wrong field is invalid', async () => {
    const events = anthropicEvents('end_turn', 'Yes');
    const ok = succeeded(await read(readAnthropicStream, [events[0]!, 'event: brand_new\ndata: {"type":"brand_new","x":[1]}\n\n', ...events.slice(1)]));
    expect(ok.text).toBe('Yes');
    const bad = failed(
      await read(readAnthropicStream, [events[0]!, `data: ${JSON.stringify({ type: 'content_block_delta', delta: { type: 'text_delta', text: 5 } })}\n\n`]),
    );
    expect(bad.kind).toBe('invalid_response');
    expect(bad.message).toMatch(/delta\.text/);
  });
});

const geminiChunk = (text: string | null, finishReason?: string) => ({
  candidates: [{ content: { role: 'model', ...(text === null ? {} : { parts: [{ text }] }) }, index: 0, ...(finishReason ? { finishReason } : {}) }],
  usageMetadata: { promptTokenCount: 15, candidatesTokenCount: text ? 2 : 0, thoughtsTokenCount: 40, totalTokenCount: 57 },
  responseId: 'r1',
});

describe('Gemini stream endings', () => {
  it.each(['SAFETY', 'RECITATION', 'PROHIBITED_CONTENT', 'BLOCKLIST', 'SPII', 'IMAGE_SAFETY'])('finishReason %s is refused', async (reason) => {
    const error = failed(await read(readGeminiStream, sse([geminiChunk(null, reason)], false)));
    expect(error.kind).toBe('refused');
    expect(error.message).toBe(`Gemini declined: ${reason}`);
  });

  it('MAX_TOKENS with text is an answer with thinking billed as output; thought parts are not text', async () => {
    const chunk = geminiChunk('Yes', 'MAX_TOKENS');
    (chunk.candidates[0]!.content as { parts: unknown[] }).parts.unshift({ text: 'Let me think…', thought: true });
    const result = succeeded(await read(readGeminiStream, sse([chunk], false)));
    expect(result.text).toBe('Yes');
    expect(result.finishReason).toBe('MAX_TOKENS');
    expect(result.usage).toMatchObject({ inputTokens: 15, outputTokens: 42 });
  });

  it('a chunk whose candidates is not a list is invalid', async () => {
    const error = failed(await read(readGeminiStream, sse([{ candidates: { text: 'x' } }], false)));
    expect(error.kind).toBe('invalid_response');
    expect(error.message).toMatch(/candidates/);
  });
});
