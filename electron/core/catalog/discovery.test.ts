import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogFileSchema } from '../../../shared/schemas/catalog';
import { ScriptedUpstream } from '../../test-support/scripted-upstream';
import { tempCore } from '../../test-support/temp-core';

const json = (body: unknown) => ({ kind: 'respond' as const, status: 200, chunks: [JSON.stringify(body)] });

describe('discovery from providers’ own model listings', () => {
  let openai: ScriptedUpstream;
  let anthropic: ScriptedUpstream;
  let gemini: ScriptedUpstream;
  beforeAll(async () => {
    [openai, anthropic, gemini] = await Promise.all([new ScriptedUpstream().start(), new ScriptedUpstream().start(), new ScriptedUpstream().start()]);
  });
  afterAll(async () => {
    await Promise.all([openai.close(), anthropic.close(), gemini.close()]);
  });

  it('adds what each listing reports, in each wire format, and nothing more', async () => {
    const env = await tempCore();
    try {
      openai.always(
        json({
          object: 'list',
          data: [
            { id: 'qwen2.5-7b', object: 'model', created: 1_720_000_000, owned_by: 'me', max_model_len: 32_768 },
            { id: 'meta-llama/Llama-3.1-8B', object: 'model' },
          ],
        }),
      );
      anthropic.always(
        json({
          data: [{ type: 'model', id: 'claude-x-1', display_name: 'Claude X 1', created_at: '2026-01-02T00:00:00Z' }],
          has_more: false,
          first_id: 'claude-x-1',
          last_id: 'claude-x-1',
        }),
      );
      gemini.always(
        json({
          models: [
            {
              name: 'models/gemini-x-flash',
              displayName: 'Gemini X Flash',
              inputTokenLimit: 1_048_576,
              outputTokenLimit: 8192,
              supportedGenerationMethods: ['generateContent', 'countTokens'],
            },
            { name: 'models/embedding-x', displayName: 'Embedding', supportedGenerationMethods: ['embedContent'] },
          ],
        }),
      );
      await env.core.replaceCatalogFile(
        CatalogFileSchema.parse({
          version: 1,
          providers: [
            { slug: 'my-vllm', name: 'My vLLM', wire_format: 'openai', base_url: `${openai.url}/v1`, local: true },
            { slug: 'claude-proxy', name: 'Claude proxy', wire_format: 'anthropic', base_url: `${anthropic.url}/v1` },
            { slug: 'gem', name: 'Gem', wire_format: 'gemini', base_url: `${gemini.url}/v1beta` },
          ],
        }),
      );
      await env.core.providerKeys.set('claude-proxy', 'sk-ant-000000');
      await env.core.providerKeys.set('gem', 'gm-00000000');
      const results = await env.core.refreshDiscovery();
      const byProvider = Object.fromEntries(results.map((r) => [r.provider, r]));
      expect(byProvider['my-vllm']).toMatchObject({ models: 2, error: null });
      expect(byProvider['claude-proxy']).toMatchObject({ models: 1, error: null });
      expect(byProvider['gem']).toMatchObject({ models: 1, error: null });

      const local = env.core.catalog.endpointsOf('my-vllm/qwen2.5-7b')[0]!;
      expect(local).toMatchObject({ upstreamModel: 'qwen2.5-7b', contextLength: 32_768, pricing: { prompt: '0', completion: '0' } });
      expect(env.core.catalog.model('my-vllm/qwen2.5-7b').created).toBe(1_720_000_000);
      expect(env.core.catalog.endpointsOf('meta-llama/llama-3.1-8b')[0]!.upstreamModel).toBe('meta-llama/Llama-3.1-8B');
      const claude = env.core.catalog.endpointsOf('claude-proxy/claude-x-1')[0]!;
      expect(claude.prices.prompt).toBeNull();
      expect(env.core.catalog.model('claude-proxy/claude-x-1').name).toBe('Claude X 1');
      expect(env.core.catalog.endpointsOf('gem/gemini-x-flash')[0]).toMatchObject({ contextLength: 1_048_576, maxCompletionTokens: 8192 });
      expect(env.core.catalog.hasModel('gem/embedding-x')).toBe(false);

      expect(anthropic.received.at(-1)!.headers['x-api-key']).toBe('sk-ant-000000');
      expect(anthropic.received.at(-1)!.headers['anthropic-version']).toBe('2023-06-01');
      expect(gemini.received.at(-1)!.headers['x-goog-api-key']).toBe('gm-00000000');
      expect(openai.received.at(-1)!.headers['authorization']).toBeUndefined();
    } finally {
      await env.cleanup();
    }
  });

  it('a provider whose listing fails is reported with the reason, and the rest still load', async () => {
    const env = await tempCore();
    try {
      openai.always({ kind: 'respond', status: 401, chunks: [JSON.stringify({ error: { message: 'Incorrect API key provided' } })] });
      await env.core.replaceCatalogFile(
        CatalogFileSchema.parse({
          version: 1,
          providers: [
            { slug: 'cloud', name: 'Cloud', wire_format: 'openai', base_url: `${openai.url}/v1` },
            { slug: 'nothing-here', name: 'Gone', wire_format: 'openai', base_url: 'http://127.0.0.1:9/v1', local: true },
          ],
        }),
      );
      await env.core.providerKeys.set('cloud', 'sk-wrong-0000');
      const results = await env.core.refreshDiscovery();
      expect(results.find((r) => r.provider === 'cloud')).toMatchObject({ models: 0, error: 'HTTP 401: Incorrect API key provided' });
      expect(results.find((r) => r.provider === 'nothing-here')).toMatchObject({ models: 0, error: 'connection refused' });
      const listed = await env.core.handlers['providers.list']({});
      expect(listed.find((p) => p.slug === 'cloud')!.discovery).toMatchObject({ models: 0, error: 'HTTP 401: Incorrect API key provided' });
    } finally {
      await env.cleanup();
    }
  });
});
