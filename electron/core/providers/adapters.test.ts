import { scriptedUpstreamSuite } from '../../test-support/upstream-suite';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../clock';
import { OPEN_CAPABILITIES } from '../../test-support/catalog-fixtures';
import { ERROR_BODY, WIRE } from '../../test-support/wire-fixtures';
import { anthropicAdapter } from './anthropic/adapter';
import { decisionsAdapter } from './decisions/adapter';
import { gatewayHost } from './decisions/hosts';
import { geminiAdapter } from './gemini/adapter';
import { openaiAdapter } from './openai/adapter';
import type { ChatRequest, ProviderAdapter } from './types';
import { UpstreamError } from './upstream-error';

const REQUEST: ChatRequest = {
  system: 'Answer with one label.',
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'The parcel came late.', cache: true },
        { type: 'text', text: 'Late? Answer Yes or No.' },
      ],
    },
  ],
  maxTokens: 1,
  temperature: 0,
  topLogprobs: 5,
};

interface WireCase {
  name: string;
  adapter: ProviderAdapter;
  path: RegExp;
  authHeader: [string, string];
  ok: ReturnType<typeof WIRE.openai>;
  errorBody: (message: string) => string;
  expectText: string;
  expectUsage: { inputTokens: number; outputTokens: number; cachedInputTokens: number };
  expectTop: { token: string; logprob: number }[] | null;
  /** A body whose stream ends before the provider's end marker. */
  truncated: string[];
  checkBody: (body: Record<string, unknown>) => void;
}

const CASES: WireCase[] = [
  {
    name: 'OpenAI-compatible',
    adapter: openaiAdapter,
    path: /^\/v1\/chat\/completions$/,
    authHeader: ['authorization', 'Bearer sk-test-key'],
    ok: WIRE.openai('Yes', {
      top: [
        { token: 'Yes', logprob: -0.1 },
        { token: 'No', logprob: -2.4 },
      ],
      usage: { prompt: 40, completion: 1, cached: 32 },
    }),
    errorBody: ERROR_BODY.openai,
    expectText: 'Yes',
    expectUsage: { inputTokens: 40, outputTokens: 1, cachedInputTokens: 32 },
    expectTop: [
      { token: 'Yes', logprob: -0.1 },
      { token: 'No', logprob: -2.4 },
    ],
    truncated: [`data: ${JSON.stringify({ id: 'x', choices: [{ index: 0, delta: { content: 'Y' } }] })}\n\n`],
    checkBody: (body) => {
      expect(body).toMatchObject({
        model: 'upstream-model',
        max_tokens: 1,
        temperature: 0,
        logprobs: true,
        top_logprobs: 5,
        stream: true,
        stream_options: { include_usage: true },
      });
      expect((body['messages'] as unknown[])[0]).toEqual({ role: 'system', content: 'Answer with one label.' });
    },
  },
  {
    name: 'Anthropic Messages',
    adapter: anthropicAdapter,
    path: /^\/v1\/messages$/,
    authHeader: ['x-api-key', 'sk-test-key'],
    ok: WIRE.anthropic('Yes'),
    errorBody: ERROR_BODY.anthropic,
    expectText: 'Yes',
    expectUsage: { inputTokens: 28, outputTokens: 3, cachedInputTokens: 8 },
    expectTop: null,
    truncated: [`event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { id: 'm', usage: { input_tokens: 3 } } })}\n\n`],
    checkBody: (body) => {
      expect(body).toMatchObject({ model: 'upstream-model', max_tokens: 1, system: 'Answer with one label.', stream: true });
      const content = (body['messages'] as { content: Record<string, unknown>[] }[])[0]!.content;
      expect(content[0]).toEqual({ type: 'text', text: 'The parcel came late.', cache_control: { type: 'ephemeral' } });
    },
  },
  {
    name: 'Gemini generateContent',
    adapter: geminiAdapter,
    path: /^\/v1beta\/models\/upstream-model:streamGenerateContent\?alt=sse$/,
    authHeader: ['x-goog-api-key', 'sk-test-key'],
    ok: WIRE.gemini('Yes', {
      top: [
        { token: 'Yes', logProbability: -0.2 },
        { token: 'No', logProbability: -1.7 },
      ],
    }),
    errorBody: (m) => ERROR_BODY.gemini(m),
    expectText: 'Yes',
    expectUsage: { inputTokens: 30, outputTokens: 1, cachedInputTokens: 16 },
    expectTop: [
      { token: 'Yes', logprob: -0.2 },
      { token: 'No', logprob: -1.7 },
    ],
    truncated: [`data: ${JSON.stringify({ candidates: [{ content: { parts: [{ text: 'Y' }] } }] })}\n\n`],
    checkBody: (body) => {
      expect(body).toMatchObject({
        generationConfig: { maxOutputTokens: 1, temperature: 0, responseLogprobs: true, logprobs: 5 },
        systemInstruction: { parts: [{ text: 'Answer with one label.' }] },
      });
    },
  },
];

describe.each(CASES)('$name adapter (shared suite)', (wire) => {
  const suite = scriptedUpstreamSuite();
  const http = suite.http;
  const base = () => (wire.adapter === geminiAdapter ? `${suite.upstream.url}/v1beta` : `${suite.upstream.url}/v1`);
  const call = (timeoutMs = 2_000) =>
    wire.adapter.chat!({ baseUrl: base(), model: 'upstream-model', apiKey: 'sk-test-key', capabilities: OPEN_CAPABILITIES, host: null }, REQUEST, {
      http,
      clock: systemClock,
      signal: AbortSignal.timeout(timeoutMs),
    });
  const failure = async (timeoutMs?: number) => {
    const error = await call(timeoutMs).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    return error as UpstreamError;
  };

  it('sends the provider its own request shape and key header', async () => {
    suite.upstream.script(wire.ok);
    await call();
    const received = suite.upstream.received.at(-1)!;
    expect(received.method).toBe('POST');
    expect(received.path).toMatch(wire.path);
    expect(received.headers[wire.authHeader[0]]).toBe(wire.authHeader[1]);
    wire.checkBody(received.body as Record<string, unknown>);
  });

  it('reads text, usage with cached tokens, log-probabilities and timings', async () => {
    suite.upstream.script(wire.ok);
    const result = await call();
    expect(result.text).toBe(wire.expectText);
    expect(result.usage).toMatchObject(wire.expectUsage);
    expect(result.tokens?.[0]?.top ?? null).toEqual(wire.expectTop);
    expect(result.timings.firstTokenMs).not.toBeNull();
    expect(result.timings.totalMs).toBeGreaterThanOrEqual(result.timings.firstTokenMs!);
  });

  it.each([
    [401, 'auth'],
    [403, 'auth'],
    [404, 'not_found'],
    [400, 'bad_request'],
    [500, 'server_error'],
    [503, 'overloaded'],
    [529, 'overloaded'],
  ] as const)('HTTP %i is a %s failure carrying the provider message', async (status, kind) => {
    suite.upstream.script({ kind: 'respond', status, chunks: [wire.errorBody(`scripted ${status}`)] });
    const error = await failure();
    expect(error.kind).toBe(kind);
    expect(error.message).toBe(`HTTP ${status}: scripted ${status}`);
  });

  it('429 carries Retry-After in ms', async () => {
    suite.upstream.script({
      kind: 'respond',
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': '7' },
      chunks: [wire.errorBody('slow down')],
    });
    const error = await failure();
    expect(error.kind).toBe('rate_limited');
    expect(error.details.retryAfterMs).toBe(7000);
  });

  it('a malformed stream chunk is an invalid response', async () => {
    suite.upstream.script({ kind: 'respond', status: 200, headers: { 'content-type': 'text/event-stream' }, chunks: ['data: {"not json\n\n'] });
    expect((await failure()).kind).toBe('invalid_response');
  });

  it('a stream that stops early is an invalid response', async () => {
    suite.upstream.script({ kind: 'respond', status: 200, headers: { 'content-type': 'text/event-stream' }, chunks: wire.truncated });
    expect((await failure()).kind).toBe('invalid_response');
  });

  it('a connection reset mid-body is a connection failure', async () => {
    suite.upstream.script({ kind: 'reset-mid-body', status: 200, chunks: wire.truncated });
    expect((await failure()).kind).toBe('connection');
  });

  it('a connection reset before headers is a connection failure', async () => {
    suite.upstream.script({ kind: 'reset-before-headers' });
    expect((await failure()).kind).toBe('connection');
  });

  it('no answer within the time allowed is a timeout', async () => {
    suite.upstream.script({ kind: 'stall-before-headers' });
    expect((await failure(150)).kind).toBe('timeout');
  });

  it('a refused connection is a connection failure', async () => {
    const refused = wire.adapter.chat!({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm', apiKey: 'k', capabilities: OPEN_CAPABILITIES, host: null }, REQUEST, {
      http,
      clock: systemClock,
      signal: AbortSignal.timeout(2000),
    });
    const error = await refused.catch((e: unknown) => e);
    expect((error as UpstreamError).kind).toBe('connection');
  });
});

describe('native decisions adapter', () => {
  const suite = scriptedUpstreamSuite();
  const http = suite.http;
  const ask = { state: 'x', parts: [{ type: 'text' as const, text: 'x' }], questions: { q: { type: 'noul' as const, instructions: 'x' } }, assets: [] };
  const host = gatewayHost({ slug: 'remote', name: 'Remote' }, 'upstream/m');
  const decide = () =>
    decisionsAdapter.decide!({ baseUrl: `${suite.upstream.url}/api/v1`, model: 'upstream/m', apiKey: 'k', capabilities: OPEN_CAPABILITIES, host }, ask, {
      http,
      clock: systemClock,
      signal: AbortSignal.timeout(2000),
    });

  it('passes answers through unchanged and posts to /api/alpha/decisions', async () => {
    const answer = {
      id: 'g1',
      model: 'upstream/m',
      provider: 'Remote',
      answers: { q: { type: 'noul', noul: 0.73 } },
      usage: { input_tokens: 9, output_tokens: 1, cost: 0.00002 },
    };
    suite.upstream.script({ kind: 'respond', status: 200, chunks: [JSON.stringify(answer)] });
    const result = await decide();
    expect(result.answers).toEqual(answer.answers);
    expect(result.usage.cost).toBe(0.00002);
    expect(suite.upstream.received.at(-1)!.path).toBe('/api/alpha/decisions');
    expect((suite.upstream.received.at(-1)!.body as { model: string }).model).toBe('upstream/m');
  });

  it('a body that is not a DecisionsResponse is an invalid response', async () => {
    suite.upstream.script({ kind: 'respond', status: 200, chunks: [JSON.stringify({ answers: {} })] });
    expect(((await decide().catch((e: unknown) => e)) as UpstreamError).kind).toBe('invalid_response');
    suite.upstream.script({ kind: 'respond', status: 200, chunks: ['{"answers":'] });
    expect(((await decide().catch((e: unknown) => e)) as UpstreamError).kind).toBe('invalid_response');
  });
});
