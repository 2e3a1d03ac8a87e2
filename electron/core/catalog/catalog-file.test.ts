import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempCore, type TempCore } from '../../test-support/temp-core';
import { CATALOG_FILE } from '../create-core';

const MODEL = {
  id: 'acme/one',
  name: 'One',
  created: 1,
  architecture: { input_modalities: ['text'], output_modalities: ['text'], modality: 'text->text', instruct_type: null, tokenizer: null },
};

describe('catalog file', () => {
  let env: TempCore;
  afterEach(() => env.cleanup());

  it('imports, applies and exports what the user wrote; unknown prices stay unknown', async () => {
    env = await tempCore();
    await env.core.settings.update({ sandbox: 'off' });
    const result = await env.core.handlers['catalog.import']({
      catalog: { version: 1, models: [MODEL], endpoints: [{ model_id: 'acme/one', provider: 'openai', upstream_model: 'one-2026' }] },
    });
    expect(result).toEqual({ providers: 0, models: 1, endpoints: 1 });
    const listing = await env.core.handlers['models.endpoints']({ model: 'acme/one' });
    expect(listing.endpoints[0]).toMatchObject({
      provider_name: 'OpenAI',
      pricing: { prompt: '-1', completion: '-1' },
      context_length: 0,
      latency_last_30m: null,
    });
    const exported = await env.core.handlers['catalog.export']({});
    expect(exported.endpoints[0]).toMatchObject({ model_id: 'acme/one', provider: 'openai', upstream_model: 'one-2026', context_length: null });
    expect(JSON.parse(readFileSync(join(env.dataDir, CATALOG_FILE), 'utf8')).endpoints).toHaveLength(1);
  });

  it('names the field that is wrong and saves nothing', async () => {
    env = await tempCore();
    await env.core.handlers['catalog.import']({ catalog: { version: 1, models: [MODEL] } });
    const saved = readFileSync(join(env.dataDir, CATALOG_FILE), 'utf8');
    const bad = await env.core.handlers['catalog.import']({
      catalog: { version: 1, models: [MODEL], endpoints: [{ model_id: 'acme/one', provider: 'nobody', upstream_model: 'x' }] },
    }).catch((e: Error) => e);
    expect((bad as Error).message).toBe('Invalid catalog: endpoints[0].provider: unknown provider "nobody"');
    const shape = await env.core.handlers['catalog.import']({ catalog: { version: 1, models: [{ ...MODEL, created: 'yesterday' }] } }).catch((e: Error) => e);
    expect((shape as Error).message).toMatch(/^Invalid catalog: models\[0\]\.created:/);
    expect(readFileSync(join(env.dataDir, CATALOG_FILE), 'utf8')).toBe(saved);
  });

  it('a damaged file on disk is reported at start and left untouched', async () => {
    env = await tempCore();
    const path = join(env.dataDir, CATALOG_FILE);
    await env.core.close();
    writeFileSync(path, '{"version": 1, "models": [');
    const again = await tempCore({ dataDir: env.dataDir } as never);
    try {
      const info = await again.core.handlers['app.info']({});
      expect(info.catalog_problem).toMatch(/catalog\.json was not loaded and was left untouched: not valid JSON/);
      expect(readFileSync(path, 'utf8')).toBe('{"version": 1, "models": [');
    } finally {
      await again.core.close();
    }
  });
});
