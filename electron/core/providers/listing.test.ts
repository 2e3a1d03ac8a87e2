import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../clock';
import { ScriptedUpstream, type Script } from '../../test-support/scripted-upstream';
import { UpstreamHttp } from './http';
import { listAnthropicModels } from './anthropic/listing';
import { listGeminiModels } from './gemini/listing';
import { MAX_LISTING_PAGES } from './listing';
import { listOpenAiModels } from './openai/listing';
import { UpstreamError } from './upstream-error';

/** Model listings read by each provider folder, following the provider's own pagination. */

const json = (body: unknown): Script => ({ kind: 'respond', status: 200, chunks: [JSON.stringify(body)] });
const claude = (id: string) => ({ type: 'model', id, display_name: id.toUpperCase(), created_at: '2026-01-02T00:00:00Z' });
const gemini = (name: string, methods = ['generateContent', 'countTokens']) => ({
  name: `models/${name}`,
  displayName: name,
  inputTokenLimit: 1_048_576,
  outputTokenLimit: 65_536,
  supportedGenerationMethods: methods,
});

let upstream: ScriptedUpstream;
const http = new UpstreamHttp(systemClock);
const signal = () => AbortSignal.timeout(2_000);
beforeAll(async () => {
  upstream = await new ScriptedUpstream().start();
});
afterAll(async () => {
  await http.close();
  await upstream.close();
});

describe('Anthropic models listing', () => {
  it('follows has_more with after_id = last_id until a page says no more', async () => {
    const before = upstream.received.length;
    upstream.script(
      json({ data: [claude('claude-a'), claude('claude-b')], has_more: true, first_id: 'claude-a', last_id: 'claude-b' }),
      json({ data: [claude('claude-c')], has_more: true, first_id: 'claude-c', last_id: 'claude-c' }),
      json({ data: [claude('claude-d')], has_more: false, first_id: 'claude-d', last_id: 'claude-d' }),
    );
    const models = await listAnthropicModels(`${upstream.url}/v1`, 'sk-ant-0', http, signal());
    expect(models.map((m) => m.id)).toEqual(['claude-a', 'claude-b', 'claude-c', 'claude-d']);
    expect(models[0]).toEqual({ id: 'claude-a', name: 'CLAUDE-A', created: Date.parse('2026-01-02T00:00:00Z') / 1000 });
    const asked = upstream.received.slice(before);
    expect(asked.map((r) => r.path)).toEqual(['/v1/models?limit=1000', '/v1/models?limit=1000&after_id=claude-b', '/v1/models?limit=1000&after_id=claude-c']);
    expect(asked.every((r) => r.headers['x-api-key'] === 'sk-ant-0' && r.headers['anthropic-version'] === '2023-06-01')).toBe(true);
  });

  it(`stops after ${MAX_LISTING_PAGES} pages of a listing that never ends`, async () => {
    const before = upstream.received.length;
    // Exactly the cap's worth of pages, each saying there is more: one request beyond would find no script and fail.
    upstream.script(...Array.from({ length: MAX_LISTING_PAGES }, (_, i) => json({ data: [claude(`m-${i}`)], has_more: true, last_id: `m-${i}` })));
    const models = await listAnthropicModels(`${upstream.url}/v1`, 'k', http, signal());
    expect(models).toHaveLength(MAX_LISTING_PAGES);
    expect(upstream.received.length - before).toBe(MAX_LISTING_PAGES);
  });

  it('a page that says more but repeats its last id is not followed again', async () => {
    const before = upstream.received.length;
    upstream.script(json({ data: [claude('x')], has_more: true, last_id: 'x' }), json({ data: [claude('x')], has_more: true, last_id: 'x' }));
    expect((await listAnthropicModels(`${upstream.url}/v1`, 'k', http, signal())).map((m) => m.id)).toEqual(['x', 'x']);
    expect(upstream.received.length - before).toBe(2);
  });
});

describe('Gemini models listing', () => {
  it('follows nextPageToken with pageToken, keeping only models that generate content', async () => {
    const before = upstream.received.length;
    upstream.script(
      json({ models: [gemini('gemini-2.5-flash'), gemini('text-embedding-004', ['embedContent'])], nextPageToken: 'tok/1=' }),
      json({ models: [gemini('gemini-2.5-pro')], nextPageToken: 'tok2' }),
      json({}),
    );
    const models = await listGeminiModels(`${upstream.url}/v1beta`, 'gm-0', http, signal());
    expect(models.map((m) => m.id)).toEqual(['gemini-2.5-flash', 'gemini-2.5-pro']);
    expect(models[0]).toEqual({ id: 'gemini-2.5-flash', name: 'gemini-2.5-flash', contextLength: 1_048_576, maxOutput: 65_536 });
    const asked = upstream.received.slice(before);
    expect(asked.map((r) => r.path)).toEqual([
      '/v1beta/models?pageSize=1000',
      '/v1beta/models?pageSize=1000&pageToken=tok%2F1%3D',
      '/v1beta/models?pageSize=1000&pageToken=tok2',
    ]);
    expect(asked.every((r) => r.headers['x-goog-api-key'] === 'gm-0')).toBe(true);
  });

  it(`stops after ${MAX_LISTING_PAGES} pages`, async () => {
    const before = upstream.received.length;
    upstream.script(...Array.from({ length: MAX_LISTING_PAGES }, (_, i) => json({ models: [gemini(`g-${i}`)], nextPageToken: `t${i}` })));
    expect(await listGeminiModels(`${upstream.url}/v1beta`, 'k', http, signal())).toHaveLength(MAX_LISTING_PAGES);
    expect(upstream.received.length - before).toBe(MAX_LISTING_PAGES);
  });
});

describe('OpenAI-compatible models listing', () => {
  it('reads one page with the context length vLLM or OpenRouter give', async () => {
    upstream.script(
      json({
        object: 'list',
        data: [
          { id: 'qwen', object: 'model', created: 1_720_000_000, max_model_len: 32_768 },
          { id: 'or/x', context_length: 8_192 },
        ],
      }),
    );
    expect(await listOpenAiModels(`${upstream.url}/v1`, 'sk', http, signal())).toEqual([
      { id: 'qwen', created: 1_720_000_000, contextLength: 32_768 },
      { id: 'or/x', created: undefined, contextLength: 8_192 },
    ]);
    expect(upstream.received.at(-1)!.headers['authorization']).toBe('Bearer sk');
  });
});

describe('listing failures', () => {
  it('an HTTP error, a body that is not JSON and an unexpected shape are classified', async () => {
    upstream.script({
      kind: 'respond',
      status: 401,
      chunks: [JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } })],
    });
    expect(((await listAnthropicModels(`${upstream.url}/v1`, 'bad', http, signal()).catch((e: unknown) => e)) as UpstreamError).kind).toBe('auth');
    upstream.script({ kind: 'respond', status: 200, chunks: ['<html>'] });
    expect(((await listGeminiModels(`${upstream.url}/v1beta`, 'k', http, signal()).catch((e: unknown) => e)) as UpstreamError).message).toBe(
      'the model listing is not JSON',
    );
    upstream.script(json({ data: [{ name: 'no id' }] }));
    expect(((await listOpenAiModels(`${upstream.url}/v1`, 'k', http, signal()).catch((e: unknown) => e)) as UpstreamError).kind).toBe('invalid_response');
  });
});
