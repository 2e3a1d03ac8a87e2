import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../clock';
import { ScriptedUpstream } from '../../test-support/scripted-upstream';
import { UpstreamHttp, type UpstreamResponse } from './http';
import { readAnthropicStream } from './anthropic/stream';
import { readGeminiStream } from './gemini/stream';
import { readOpenAiStream } from './openai/stream';
import type { CallContext, ChatResult } from './types';
import { UpstreamError } from './upstream-error';
import { UpstreamBody } from './upstream-body';

/**
 * Payloads recorded by others (fixtures/recorded, see SOURCES.md), replayed through each adapter's
 * stream loop: whole and cut in two over a real loopback socket, and cut in two at every byte
 * boundary into the response body the HTTP client fills (one push per network read, as the client
 * pushes them), which hands the reader the two pieces as two reads every time; thousands of cuts
 * cost one HTTP exchange each over the socket. The expected values were read from the fixture files by hand.
 */

const fixture = (path: string): Buffer => readFileSync(new URL(`../../test-support/fixtures/recorded/${path}`, import.meta.url));

type Reader = typeof readOpenAiStream;
const READERS: Record<'openai' | 'anthropic' | 'gemini', Reader> = { openai: readOpenAiStream, anthropic: readAnthropicStream, gemini: readGeminiStream };

interface Expected {
  text: string;
  usage: { inputTokens: number | null; outputTokens: number | null; cachedInputTokens: number; cacheWriteTokens?: number };
  finishReason: string;
  upstreamId?: string;
  /** The first and last tokens with their log-probabilities, and how many there are; null: none. */
  tokens?: {
    count: number;
    first: { token: string; logprob: number; top: { token: string; logprob: number }[] };
    last: { token: string; logprob: number };
  } | null;
}

interface Failure {
  kind: UpstreamError['kind'];
  message: RegExp;
}

interface Case {
  name: string;
  wire: keyof typeof READERS;
  body: () => Buffer;
  expect: Expected | Failure;
}

const CASES: Case[] = [
  {
    name: 'openai/chat-stream-logprobs-usage.sse',
    wire: 'openai',
    body: () => fixture('openai/chat-stream-logprobs-usage.sse'),
    expect: {
      text: 'Foo!',
      usage: { inputTokens: 9, outputTokens: 2, cachedInputTokens: 0 },
      finishReason: 'stop',
      upstreamId: 'chatcmpl-ABfw5EzoqmfXjnnsXY7Yd8OC6tb3c',
      tokens: { count: 2, first: { token: 'Foo', logprob: -0.0025094282, top: [] }, last: { token: '!', logprob: -0.26638845 } },
    },
  },
  {
    name: 'openai/chat-stream-refusal.sse',
    wire: 'openai',
    body: () => fixture('openai/chat-stream-refusal.sse'),
    expect: { kind: 'refused', message: /^The provider declined: I'm sorry, I can't assist with that request\.$/ },
  },
  {
    name: 'openai/chat-stream-usage-chunk-prompt-tokens-details.sse',
    wire: 'openai',
    body: () => fixture('openai/chat-stream-usage-chunk-prompt-tokens-details.sse'),
    expect: {
      text: '**Holiday',
      usage: { inputTokens: 16, outputTokens: 300, cachedInputTokens: 0 },
      finishReason: 'stop',
      upstreamId: 'chatcmpl-D8Z5oo6uDh67AD85p73ksdT1KxhE0',
      tokens: null,
    },
  },
  {
    name: 'groq/chat-stream-reasoning-usage-in-finish-chunk.sse',
    wire: 'openai',
    body: () => fixture('groq/chat-stream-reasoning-usage-in-finish-chunk.sse'),
    expect: {
      text: 'Something with name: does_not_exist',
      usage: { inputTokens: 336, outputTokens: 135, cachedInputTokens: 0 },
      finishReason: 'stop',
      tokens: null,
    },
  },
  {
    name: 'together/chat-stream-logprobs-number.sse',
    wire: 'openai',
    body: () => fixture('together/chat-stream-logprobs-number.sse'),
    expect: {
      text: " Foo and bar. I've said what you asked, and now I'll say no more.",
      usage: { inputTokens: 17, outputTokens: 23, cachedInputTokens: 0 },
      finishReason: 'eos',
      upstreamId: '8b63bc5b486d4316-EWR',
      // 23 chunks, one ("ve") with `logprobs: null`; the last is the end-of-sequence token with empty text.
      tokens: { count: 22, first: { token: ' F', logprob: -0.0011520386, top: [] }, last: { token: '', logprob: -0.00000500679 } },
    },
  },
  {
    name: 'anthropic/messages-stream-basic.sse (no blank line after the last event)',
    wire: 'anthropic',
    body: () => fixture('anthropic/messages-stream-basic.sse'),
    expect: {
      text: 'Hello there!',
      usage: { inputTokens: 11, outputTokens: 6, cachedInputTokens: 0 },
      finishReason: 'end_turn',
      upstreamId: 'msg_4QpJur2dWWDjF6C758FbBw5vm12BaVipnK',
    },
  },
  {
    name: 'anthropic/messages-stream-message-delta-input-tokens.sse',
    wire: 'anthropic',
    body: () => fixture('anthropic/messages-stream-message-delta-input-tokens.sse'),
    // message_start says 43 input tokens, message_delta 61: the later figure wins.
    expect: { text: 'pong', usage: { inputTokens: 61, outputTokens: 2, cachedInputTokens: 0 }, finishReason: 'end_turn' },
  },
  {
    name: 'anthropic/messages-stream-start-without-usage.sse',
    wire: 'anthropic',
    body: () => fixture('anthropic/messages-stream-start-without-usage.sse'),
    expect: { text: 'Hello', usage: { inputTokens: 12, outputTokens: 6, cachedInputTokens: 0 }, finishReason: 'end_turn', upstreamId: 'msg_usage_omitted' },
  },
  {
    name: 'anthropic/messages-stream-start-full-usage-emoji.sse (a 4-byte character)',
    wire: 'anthropic',
    body: () => fixture('anthropic/messages-stream-start-full-usage-emoji.sse'),
    expect: {
      text: 'Hi! \u{1F44B} How can I help you today?',
      usage: { inputTokens: 10, outputTokens: 16, cachedInputTokens: 0, cacheWriteTokens: 0 },
      finishReason: 'end_turn',
    },
  },
  {
    name: 'anthropic/messages-stream-refusal-stop-details.sse',
    wire: 'anthropic',
    body: () => fixture('anthropic/messages-stream-refusal-stop-details.sse'),
    expect: { kind: 'refused', message: /^Anthropic declined: This request was refused due to policy\.$/ },
  },
  {
    name: 'google/stream-thinking-thoughts-token-count.sse',
    wire: 'gemini',
    body: () => fixture('google/stream-thinking-thoughts-token-count.sse'),
    expect: {
      text: 'There are **3** "r"s in strawberry.\n\nHere is the breakdown: st**r**awbe**rr**y.',
      // 29 answer tokens and 256 thinking tokens, both billed as output.
      usage: { inputTokens: 9, outputTokens: 285, cachedInputTokens: 0 },
      finishReason: 'STOP',
      upstreamId: 'dX6LadKVC7SZ28oPr9yJoQs',
      tokens: null,
    },
  },
  {
    name: 'google/stream-thinking-thoughts-token-count.sse then stream-usage-only-thoughts-cached-tooluse.sse (usage after the finish)',
    wire: 'gemini',
    body: () => Buffer.concat([fixture('google/stream-thinking-thoughts-token-count.sse'), fixture('google/stream-usage-only-thoughts-cached-tooluse.sse')]),
    // The last usageMetadata wins: 12 prompt, 71 candidates + 89 thoughts, 4 cached.
    expect: {
      text: 'There are **3** "r"s in strawberry.\n\nHere is the breakdown: st**r**awbe**rr**y.',
      usage: { inputTokens: 12, outputTokens: 160, cachedInputTokens: 4 },
      finishReason: 'STOP',
    },
  },
  {
    name: 'google/stream-prompt-blocked.sse',
    wire: 'gemini',
    body: () => fixture('google/stream-prompt-blocked.sse'),
    expect: { kind: 'refused', message: /^Gemini declined: prompt blocked \(PROHIBITED_CONTENT\)$/ },
  },
  {
    name: 'google/generate-content-max-tokens-empty-thinking.json (as one stream event)',
    wire: 'gemini',
    body: () => Buffer.concat([Buffer.from('data: '), fixture('google/generate-content-max-tokens-empty-thinking.json'), Buffer.from('\n\n')]),
    expect: { kind: 'incomplete', message: /MAX_TOKENS/ },
  },
];

/** Several upstreams, each serving one request at a time, so cuts are replayed a few at once. */
const LANES = 6;
let upstreams: ScriptedUpstream[] = [];
const http = new UpstreamHttp(systemClock);

beforeAll(async () => {
  upstreams = await Promise.all(Array.from({ length: LANES }, () => new ScriptedUpstream().start()));
});
afterAll(async () => {
  await http.close();
  await Promise.all(upstreams.map((u) => u.close()));
});

/** Serves `chunks` (each its own write, on its own connection) and reads them with the adapter's stream loop. */
async function replay(wire: keyof typeof READERS, chunks: Uint8Array[], lane = 0): Promise<ChatResult | UpstreamError> {
  const upstream = upstreams[lane]!;
  upstream.script({ kind: 'respond', status: 200, headers: { 'content-type': 'text/event-stream' }, chunks, flushEachChunk: chunks.length > 1 });
  const ctx: CallContext = { http, clock: systemClock, signal: AbortSignal.timeout(5_000) };
  const started = systemClock.now();
  const response = await http.postJson(`${upstream.url}/v1/stream`, {}, { headers: {}, signal: ctx.signal });
  const body = response.body;
  let count = 0;
  body.on('data', () => count++);
  const outcome = await READERS[wire](response, ctx, started, upstream.url).catch((error: unknown) => {
    if (error instanceof UpstreamError) return error;
    throw error;
  });
  reads.push(count);
  return outcome;
}

/** How many reads each replay's body arrived in. */
const reads: number[] = [];

/** `pieces` pushed into a response body as the HTTP client pushes each read, then read with the adapter's stream loop. */
async function replayPushed(wire: keyof typeof READERS, pieces: Uint8Array[]): Promise<ChatResult | UpstreamError> {
  const body = new UpstreamBody();
  let count = 0;
  body.on('data', () => count++);
  for (const piece of pieces) body.push(Buffer.from(piece));
  body.end();
  const response: UpstreamResponse = { status: 200, headers: { 'content-type': 'text/event-stream' }, body, ttfbMs: 0 };
  const ctx: CallContext = { http, clock: systemClock, signal: AbortSignal.timeout(5_000) };
  const outcome = await READERS[wire](response, ctx, systemClock.now(), 'http://127.0.0.1:1').catch((error: unknown) => {
    if (error instanceof UpstreamError) return error;
    throw error;
  });
  reads.push(count);
  return outcome;
}

/** Every `stride`-th cut of a body of `length` bytes (1 … length - 1), starting at `first`. */
const cutsEvery = (length: number, stride: number, first = 1) => Array.from({ length: Math.ceil((length - first) / stride) }, (_, i) => first + i * stride);

/** What the test asserts about an outcome, in the shape of the expectation (so one comparison checks all of it). */
function observed(outcome: ChatResult | UpstreamError, expected: Expected | Failure): unknown {
  if ('kind' in expected) {
    if (!(outcome instanceof UpstreamError)) return { text: outcome.text, finishReason: outcome.finishReason };
    return { kind: outcome.kind, message: expected.message.test(outcome.message) ? expected.message : outcome.message };
  }
  if (outcome instanceof UpstreamError) return { kind: outcome.kind, message: outcome.message };
  const usage: Record<string, unknown> = {};
  for (const key of Object.keys(expected.usage)) usage[key] = outcome.usage[key as keyof typeof outcome.usage];
  return {
    text: outcome.text,
    usage,
    finishReason: outcome.finishReason,
    ...(expected.upstreamId !== undefined ? { upstreamId: outcome.upstreamId } : {}),
    ...(expected.tokens === undefined
      ? {}
      : {
          tokens:
            outcome.tokens === null
              ? null
              : {
                  count: outcome.tokens.length,
                  first: outcome.tokens[0],
                  last: outcome.tokens.length > 0 ? { token: outcome.tokens.at(-1)!.token, logprob: outcome.tokens.at(-1)!.logprob } : undefined,
                },
        }),
  };
}

const comparable = (value: unknown) => JSON.stringify(value, (_k, v: unknown) => (v instanceof RegExp ? String(v) : v));

/** A cheap comparison for the thousands of cut runs; the full assertion (with its diff) only on a mismatch. */
function check(outcome: ChatResult | UpstreamError, expected: Expected | Failure, where: string): void {
  const seen = observed(outcome, expected);
  if (comparable(seen) !== comparable(expected)) expect(seen, where).toEqual(expected);
}

describe.each(CASES)('recorded $name', (c) => {
  it('read whole', async () => {
    check(await replay(c.wire, [c.body()]), c.expect, 'whole');
  });

  it('read cut in two at every byte boundary', async () => {
    const body = c.body();
    reads.length = 0;
    for (let cut = 1; cut < body.length; cut += 1) {
      check(await replayPushed(c.wire, [body.subarray(0, cut), body.subarray(cut)]), c.expect, `cut at byte ${cut}`);
    }
    // Each cut reached the reader as two reads.
    expect(reads.filter((n) => n !== 2)).toEqual([]);
  });

  it('read cut in two over the socket, at every 23rd byte boundary', async () => {
    const body = c.body();
    const cuts = cutsEvery(body.length, 23);
    const lane = async (n: number) => {
      for (let i = n; i < cuts.length; i += LANES) {
        const cut = cuts[i]!;
        check(await replay(c.wire, [body.subarray(0, cut), body.subarray(cut)], n), c.expect, `cut at byte ${cut}`);
      }
    };
    reads.length = 0;
    await Promise.all(Array.from({ length: LANES }, (_, n) => lane(n)));
    // The two pieces reached the reader as two reads (the cut lay between reads), nearly always.
    expect(reads.filter((n) => n >= 2).length).toBeGreaterThanOrEqual(0.99 * reads.length);
  });
});
