import { sqliteOf } from '../test-support/sqlite-of';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogFileSchema } from '../../shared/schemas/catalog';
import { Store } from '../core/store/sqlite/database';
import { ScriptedUpstream } from '../test-support/scripted-upstream';
import { tempDir } from '../test-support/temp-core';
import { WIRE } from '../test-support/wire-fixtures';
import { startServer, type RunningServer } from './start-server';

const MODEL = {
  id: 'acme/judge',
  name: 'Judge',
  created: 1,
  architecture: { input_modalities: ['text'], output_modalities: ['text'], modality: 'text->text', instruct_type: null, tokenizer: null },
};
const PRICE = 0.000001;
/** A label answer with the usage a provider reports for it: 1,000 prompt tokens and 1 completion token. */
const ANSWER = {
  ...WIRE.openai('Yes', {
    top: [
      { token: 'Yes', logprob: -0.1 },
      { token: 'No', logprob: -2.4 },
    ],
    usage: { prompt: 1000, completion: 1 },
  }),
  headerDelayMs: 40,
};
const ANSWER_COST = 1001 * PRICE;

/** Credit limits and charges through the real server on a socket, against a provider with known prices. */
describe('credit limits and charges', () => {
  let server: RunningServer;
  let upstream: ScriptedUpstream;
  const dirs = [tempDir(), tempDir()];

  beforeAll(async () => {
    upstream = await new ScriptedUpstream().start();
    upstream.always(ANSWER);
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      dataDir: dirs[0]!.path,
      rendererDir: dirs[1]!.path,
      version: 'test',
      overrideGlobalObjects: false,
      sandbox: { seed: 1, failures: false, timeScale: 0.02 },
      timeouts: { deadlineMs: 5_000, attemptMs: 2_000 },
    });
    await server.core.replaceCatalogFile(
      CatalogFileSchema.parse({
        version: 1,
        providers: [{ slug: 'acme', name: 'Acme', wire_format: 'openai', base_url: `${upstream.url}/v1`, local: true }],
        models: [MODEL],
        endpoints: [
          {
            model_id: 'acme/judge',
            provider: 'acme',
            upstream_model: 'judge-1',
            pricing: { prompt: String(PRICE), completion: String(PRICE) },
            supported_parameters: ['logprobs', 'top_logprobs', 'max_tokens'],
          },
        ],
      }),
    );
  });
  afterAll(async () => {
    await server.close();
    await upstream.close();
    for (const d of dirs) d.cleanup();
  });

  const judge = { model: 'acme/judge', state: 'The parcel came two days late.', questions: { late: { type: 'noul', instructions: 'Was it late?' } } };
  const ask = (apiKey: string, body: unknown = judge) =>
    fetch(`${server.url}/api/alpha/decisions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  /** What SQLite holds for the key, read over a connection of its own (as after a crash). */
  const spentOnDisk = (id: string) => {
    const store = Store.open(sqliteOf(server.core).path);
    try {
      return store.get<{ spent: number }>('SELECT spent FROM api_keys WHERE id = ?', [id])!.spent;
    } finally {
      store.close();
    }
  };

  it('50 concurrent requests on a small limit: some are refused with 402, and the spend stays within the limit', async () => {
    // The most one request may cost, as the server reserves it (from a key that cannot afford even one).
    const probe = (await server.core.apiKeys.create('probe', 'standard', { credit_limit: 1e-9, rate_limit_rpm: null })).key;
    const refused = (await (await ask(probe)).json()) as { error: { metadata: { request_max_cost: number } } };
    const maxCost = refused.error.metadata.request_max_cost;
    expect(maxCost).toBeGreaterThanOrEqual(ANSWER_COST);
    // Room for three requests at most at once, while fifty together would cost about fifteen times the limit.
    const limit = Number((3.5 * maxCost).toFixed(6));
    expect(50 * ANSWER_COST).toBeGreaterThan(10 * limit);
    const { info, key } = await server.core.apiKeys.create('tight', 'standard', { credit_limit: limit, rate_limit_rpm: null });

    const responses = await Promise.all(Array.from({ length: 50 }, () => ask(key)));
    const statuses = responses.map((r) => r.status);
    const bodies = (await Promise.all(responses.map((r) => r.json()))) as { usage?: { cost: number }; error?: { code: number } }[];
    expect(statuses.filter((s) => s !== 200 && s !== 402)).toEqual([]);
    const answered = bodies.filter((b) => b.usage);
    expect(answered.length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 402).length).toBeGreaterThan(0);

    const spent = (await server.core.apiKeys.list()).find((k) => k.id === info.id)!.spent;
    expect(spent).toBeLessThanOrEqual(limit);
    // Every answer was charged exactly what it reports, and that is on disk already.
    const charged = answered.reduce((n, b) => n + b.usage!.cost, 0);
    expect(spent).toBeCloseTo(charged, 9);
    expect(spentOnDisk(info.id)).toBeCloseTo(charged, 9);
  });

  it('a request that fails after paid upstream calls is charged what they cost, and its log line says so', async () => {
    const { info, key } = await server.core.apiKeys.create('unlucky', 'standard', { credit_limit: 1, rate_limit_rpm: null });
    // Two log-probability calls with no usable label, then a stated answer that is not JSON: 502 after three paid calls.
    const noLabel = WIRE.openai('The', { top: [{ token: 'The', logprob: -0.01 }], usage: { prompt: 100, completion: 1 } });
    upstream.script(noLabel, noLabel, WIRE.openai('I would rather not say.', { usage: { prompt: 200, completion: 10 } }));
    const response = await ask(key);
    expect(response.status).toBe(502);
    const cost = (101 + 101 + 210) * PRICE;
    expect((await server.core.apiKeys.list()).find((k) => k.id === info.id)!.spent).toBeCloseTo(cost, 12);
    expect(spentOnDisk(info.id)).toBeCloseTo(cost, 12);
    await server.core.requestLog.flush();
    const line = server.core.requestLog.recent({ limit: 20 }).find((e) => e.key_id === info.id)!;
    expect(line).toMatchObject({ status: 502, input_tokens: null });
    expect(line.cost).toBeCloseTo(cost, 12);
    server.core.health.onSuccess('acme:acme:acme/judge');
  });
});
