import { scriptedUpstreamSuite } from '../../test-support/upstream-suite';
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../clock';
import { readAnthropicStream } from './anthropic/stream';
import { readGeminiStream } from './gemini/stream';
import { readOpenAiStream } from './openai/stream';
import { readSse } from './sse';
import type { CallContext } from './types';
import { UpstreamError } from './upstream-error';

/**
 * Every adapter reads the same answer whatever the line endings (CR, LF, CRLF) and wherever the
 * network cuts the stream: recorded streams are rewritten with each ending and served over a
 * loopback socket in arbitrary pieces, and must read exactly as the original does in one piece.
 */

const fixture = (path: string): string => readFileSync(new URL(`../../test-support/fixtures/recorded/${path}`, import.meta.url), 'utf8');

const ADAPTERS = [
  {
    name: 'OpenAI-compatible',
    read: readOpenAiStream,
    streams: [
      'openai/chat-stream-logprobs-usage.sse',
      'openai/chat-stream-refusal.sse',
      'together/chat-stream-logprobs-number.sse',
      'groq/chat-stream-reasoning-usage-in-finish-chunk.sse',
    ],
  },
  {
    name: 'Anthropic',
    read: readAnthropicStream,
    streams: [
      'anthropic/messages-stream-start-full-usage-emoji.sse',
      'anthropic/messages-stream-basic.sse',
      'anthropic/messages-stream-message-delta-input-tokens.sse',
      'anthropic/messages-stream-refusal-stop-details.sse',
    ],
  },
  { name: 'Gemini', read: readGeminiStream, streams: ['google/stream-thinking-thoughts-token-count.sse', 'google/stream-prompt-blocked.sse'] },
] as const;

const ENDINGS = { LF: '\n', CR: '\r', CRLF: '\r\n' } as const;

const suite = scriptedUpstreamSuite();
const http = suite.http;

/** What a read gave, without its timings: the result, or the failure's kind and message. */
async function outcome(read: (typeof ADAPTERS)[number]['read'], chunks: Uint8Array[]): Promise<unknown> {
  suite.upstream.script({ kind: 'respond', status: 200, headers: { 'content-type': 'text/event-stream' }, chunks, flushEachChunk: chunks.length > 1 });
  const ctx: CallContext = { http, clock: systemClock, signal: AbortSignal.timeout(5_000) };
  const response = await http.postJson(`${suite.upstream.url}/v1/stream`, {}, { headers: {}, signal: ctx.signal });
  try {
    const { timings: _timings, ...rest } = await read(response, ctx, systemClock.now(), suite.upstream.url);
    return rest;
  } catch (error) {
    if (error instanceof UpstreamError) return { kind: error.kind, message: error.message };
    throw error;
  }
}

/** `bytes` cut at the given offsets (sorted, deduplicated, inside the body). */
function cut(bytes: Buffer, offsets: number[]): Uint8Array[] {
  const points = [...new Set(offsets.map((o) => 1 + (o % (bytes.length - 1))))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let from = 0;
  for (const p of points) {
    pieces.push(bytes.subarray(from, p));
    from = p;
  }
  pieces.push(bytes.subarray(from));
  return pieces;
}

describe.each(ADAPTERS)('$name adapter: line endings and chunk boundaries', (adapter) => {
  it('reads every stream the same with CR, LF or CRLF endings, in any pieces', async () => {
    const baselines = new Map<string, unknown>();
    for (const path of adapter.streams) baselines.set(path, await outcome(adapter.read, [Buffer.from(fixture(path))]));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...adapter.streams),
        fc.constantFrom(...(Object.keys(ENDINGS) as (keyof typeof ENDINGS)[])),
        fc.array(fc.nat(), { maxLength: 8 }),
        async (path, ending, offsets) => {
          const body = Buffer.from(fixture(path).replace(/\n/g, ENDINGS[ending]));
          expect(await outcome(adapter.read, cut(body, offsets))).toEqual(baselines.get(path));
        },
      ),
      { numRuns: 60 },
    );
  }, 30_000);
});

describe('readSse', () => {
  async function events(text: string | Uint8Array[]): Promise<{ event: string | null; data: string }[]> {
    async function* body() {
      if (typeof text === 'string') yield Buffer.from(text);
      else for (const piece of text) yield piece;
    }
    const out: { event: string | null; data: string }[] = [];
    await readSse(Readable.from(body()), new AbortController().signal, (data, event) => {
      out.push({ event, data });
    });
    return out;
  }

  it('reads CR-only streams, comments, multi-line data and an event left open at the end', async () => {
    expect(await events(': keep-alive\revent: a\rdata: one\rdata: two\r\rdata: {"x":1}\r\rretry: 10\rid: 7\rdata: last')).toEqual([
      { event: 'a', data: 'one\ntwo' },
      { event: null, data: '{"x":1}' },
      { event: null, data: 'last' },
    ]);
  });

  it('keeps a character whose bytes arrive in different reads, and a CRLF split between reads', async () => {
    const bytes = Buffer.from('data: \u{1F44B}\r\n\r\n');
    const pieces = [bytes.subarray(0, 7), bytes.subarray(7, 8), bytes.subarray(8, 11), bytes.subarray(11, 12), bytes.subarray(12)];
    expect(await events(pieces)).toEqual([{ event: null, data: '\u{1F44B}' }]);
  });
});
