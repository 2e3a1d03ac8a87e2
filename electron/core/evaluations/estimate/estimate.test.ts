import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogFileSchema } from '../../../../shared/schemas/catalog';
import type { DecisionsRequest } from '../../../../shared/schemas/decisions-request';
import { maxBillingProvider } from '../../../test-support/max-billing-provider';
import { tempCore, type TempCore } from '../../../test-support/temp-core';
import { readRows } from '../../datasets/dataset-sources';
import { estimateRun } from './estimate';

/** Catalog prices in USD per token (and per request), by provider. */
const PRICES = {
  acme: { prompt: 0.000001, completion: 0.000002, request: 0.0001 },
  other: { prompt: 0.000003, completion: 0.000001, request: 0 },
};
const QUESTIONS = {
  late: { type: 'noul', instructions: 'Was it late?' },
  topic: { type: 'choice', instructions: 'What is it about?', criteria: { payments: 'money', travel: null, food: null } },
} as DecisionsRequest['questions'];
const SET = { model: 'acme/judge', state: '', questions: QUESTIONS } as DecisionsRequest;
const STATES = ['Short.', 'Überweisung fehlgeschlagen — 残高不足 🙁. The parcel came two days late, and nobody called.', 'Medium length note.'];

/**
 * The estimate's worst case of one request is what the budget holds for it at admission. It is
 * checked here against a provider at the bound: it counts one prompt token per UTF-8 byte of what
 * it was sent plus 32, replies at the full max_tokens and never gives a usable answer, so a request
 * tries every endpoint with every call. What that request is billed, worked out in this test from
 * the provider's own token counts and the catalog prices, is then exactly the most it can cost.
 */
describe('the worst case of one request in the estimate', () => {
  let env: TempCore;
  let provider: Awaited<ReturnType<typeof maxBillingProvider>>;
  let datasetId = '';

  beforeAll(async () => {
    provider = await maxBillingProvider();
    const url = provider.url;
    env = await tempCore({ sandbox: { seed: 1, failures: false, timeScale: 0.01 }, timeouts: { deadlineMs: 5_000, attemptMs: 2_000 } });
    const endpoint = (model: string, provider: string, pricing: Record<string, string>) => ({
      model_id: model,
      provider,
      upstream_model: 'judge-1',
      pricing,
      supported_parameters: ['logprobs', 'top_logprobs', 'max_tokens'],
    });
    const model = (id: string) => ({
      id,
      name: id,
      created: 1,
      architecture: { input_modalities: ['text'], output_modalities: ['text'], modality: 'text->text', instruct_type: null, tokenizer: null },
    });
    await env.core.replaceCatalogFile(
      CatalogFileSchema.parse({
        version: 1,
        providers: [
          { slug: 'acme', name: 'Acme', wire_format: 'openai', base_url: `${url}/acme/v1`, local: true },
          { slug: 'other', name: 'Other', wire_format: 'openai', base_url: `${url}/other/v1`, local: true },
        ],
        models: [model('acme/judge'), model('acme/unpriced')],
        endpoints: [
          endpoint('acme/judge', 'acme', { prompt: '0.000001', completion: '0.000002', request: '0.0001' }),
          endpoint('acme/judge', 'other', { prompt: '0.000003', completion: '0.000001' }),
          endpoint('acme/unpriced', 'acme', {}),
        ],
      }),
    );
    const content = STATES.map((state, i) => JSON.stringify({ id: `i${i}`, state, expected: { late: true } })).join('\n');
    datasetId = (await env.core.datasets.import({ name: 'd', rows: readRows(Readable.from([content]), 'd.jsonl', 'jsonl'), questions: QUESTIONS })).dataset!.id;
  });
  afterAll(async () => {
    await env.cleanup();
    await provider.close();
  });

  /** What the calls made since `from` were billed, from the provider's counts and the catalog prices. */
  const billedSince = (from: number) =>
    provider.billed.slice(from).reduce((usd, c) => {
      // Each call's provider, from the path of its base URL.
      const price = PRICES[c.path.startsWith('/acme/') ? 'acme' : 'other'];
      return usd + c.prompt * price.prompt + c.completion * price.completion + price.request;
    }, 0);

  it('is, per model and preferences, what the largest item costs when every endpoint is tried with the longest replies', async () => {
    const variants = [{ model: 'acme/judge' }, { model: 'acme/judge', label: 'acme only', provider: { only: ['acme'] } }];
    const estimate = await estimateRun(env.core, { request: SET, dataset_id: datasetId, variants });
    expect(estimate.worst_request_item).toBe('i1');
    const [both, acmeOnly] = estimate.per_variant;

    for (const [variant, figure] of [
      [variants[0]!, both!],
      [variants[1]!, acmeOnly!],
    ] as const) {
      const from = provider.billed.length;
      const request = { ...SET, state: STATES[1]!, ...(variant.provider ? { provider: variant.provider } : {}) } as DecisionsRequest;
      // No usable answer comes back, so the request fails after trying everything, and is billed for it all.
      await expect(env.core.decisions.decide(request, { requestId: `worst-${from}` })).rejects.toMatchObject({ status: 502 });
      // Two questions, three calls each, on each endpoint the preferences leave.
      expect(provider.billed.length - from).toBe(variant.provider ? 6 : 12);
      expect(figure.worst_request_note).toBeNull();
      expect(figure.worst_request_usd).toBeCloseTo(billedSince(from), 12);
    }
    // Provider preferences narrow the route, and with it what one request can cost.
    expect(acmeOnly!.worst_request_usd!).toBeLessThan(both!.worst_request_usd!);
    // The smallest budget is the largest worst case, rounded up to three significant digits.
    expect(estimate.min_budget_usd!).toBeGreaterThanOrEqual(both!.worst_request_usd!);
    expect(estimate.min_budget_usd!).toBeLessThan(both!.worst_request_usd! * 1.01);
    expect(Number(estimate.min_budget_usd!.toPrecision(3))).toBe(estimate.min_budget_usd);
    // One request's worst case is above its share of the estimate: every endpoint, every call, the longest replies.
    expect(both!.worst_request_usd!).toBeGreaterThan(both!.cost_usd! / estimate.items);
  });

  it('is what `decide` holds at admission', async () => {
    let held = -1;
    const request = { ...SET, state: STATES[1]! } as DecisionsRequest;
    await env.core.decisions.decide(request, { requestId: 'admit', admit: (maxCost) => (held = maxCost()) }).catch(() => undefined);
    expect(env.core.decisions.admissionCost(request)).toBe(held);
  });

  it('is unknown, never a number, when a price on the route is unknown, and so is the smallest budget', async () => {
    const estimate = await estimateRun(env.core, { request: SET, dataset_id: datasetId, variants: [{ model: 'acme/judge' }, { model: 'acme/unpriced' }] });
    expect(estimate.per_variant[0]!.worst_request_usd).toBeGreaterThan(0);
    expect(estimate.per_variant[1]).toMatchObject({ worst_request_usd: null, worst_request_note: 'a price on its route is unknown' });
    expect(estimate.min_budget_usd).toBeNull();
  });

  it('says why when the requests cannot be routed', async () => {
    const estimate = await estimateRun(env.core, { request: SET, dataset_id: datasetId, variants: [{ model: 'acme/judge', provider: { only: ['nobody'] } }] });
    expect(estimate.per_variant[0]!.worst_request_usd).toBeNull();
    expect(estimate.per_variant[0]!.worst_request_note).toMatch(/^its requests would fail: /);
    expect(estimate.min_budget_usd).toBeNull();
  });

  it('is worked out on the largest item of the whole dataset, not only of the items it samples for tokens', async () => {
    // 250 short items, then the longest one past the first 200 (the token-count sample).
    const short = Array.from({ length: 250 }, (_, i) => JSON.stringify({ id: `s${i}`, state: `Note ${i}.`, expected: { late: false } }));
    const long = 'The parcel came two days late and the driver left it in the rain. '.repeat(40);
    const content = [...short, JSON.stringify({ id: 'the-long-one', state: long, expected: { late: true } })].join('\n');
    const id = (await env.core.datasets.import({ name: 'tail', rows: readRows(Readable.from([content]), 'tail.jsonl', 'jsonl'), questions: QUESTIONS }))
      .dataset!.id;
    const estimate = await estimateRun(env.core, { request: SET, dataset_id: id, variants: [{ model: 'acme/judge' }] });
    expect(estimate.worst_request_item).toBe('the-long-one');
    const from = provider.billed.length;
    await expect(env.core.decisions.decide({ ...SET, state: long } as DecisionsRequest, { requestId: 'tail-worst' })).rejects.toMatchObject({ status: 502 });
    expect(estimate.per_variant[0]!.worst_request_usd).toBeCloseTo(billedSince(from), 12);
  });

  it("is refused for a question set that cannot take the dataset's expected answers, naming them", async () => {
    const content = ['a', 'b', 'c']
      .map((id, i) => JSON.stringify({ id, state: `Note ${id}.`, expected: { topic: i === 0 ? 'food' : 'travel', late: true } }))
      .join('\n');
    const id = (await env.core.datasets.import({ name: 'topics', rows: readRows(Readable.from([content]), 'topics.jsonl', 'jsonl'), questions: QUESTIONS }))
      .dataset!.id;
    // "topic" asked as a score of two levels: its option names are no levels.
    const scored = {
      ...SET,
      questions: { ...QUESTIONS, topic: { type: 'score', instructions: 'How much about money?', criteria: ['not', 'very'] } },
    } as DecisionsRequest;
    const refused = estimateRun(env.core, { request: scored, dataset_id: id, variants: [{ model: 'acme/judge' }] });
    await expect(refused).rejects.toMatchObject({ status: 400 });
    await expect(refused).rejects.toThrow('expected.topic: score level "travel" is out of range: expected a whole number from 0 to 1 (2 items, e.g. "b")');
    await expect(refused).rejects.toThrow('expected.topic: score level "food" is out of range: expected a whole number from 0 to 1 (1 item, e.g. "a")');
    // Corrected to levels, the same set is taken.
    for (const [position, level] of [
      [0, 0],
      [1, 1],
      [2, 1],
    ] as const)
      env.core.datasets.updateExpected(id, position, { topic: level, late: true }, scored.questions as never);
    await expect(estimateRun(env.core, { request: scored, dataset_id: id, variants: [{ model: 'acme/judge' }] })).resolves.toMatchObject({ items: 3 });
  });
});
