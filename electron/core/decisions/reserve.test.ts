import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogFileSchema } from '../../../shared/schemas/catalog';
import type { DecisionsRequest } from '../../../shared/schemas/decisions-request';
import { maxBillingProvider } from '../../test-support/max-billing-provider';
import { tempCore, type TempCore } from '../../test-support/temp-core';
import { pngWithRect } from '../../test-support/images';
import { usageOf } from './usage';

/**
 * The reservation at admission bounds what a request really costs, whatever the plan does:
 * fallbacks after failures and 429s, repeated log-probability calls, stated probabilities, native
 * answers, boxes. Simulated providers with their scripted failures on, so every path is taken.
 */
describe('the most a request can cost', () => {
  let env: TempCore;
  beforeAll(async () => {
    env = await tempCore({ sandbox: { seed: 7, failures: true, timeScale: 0.01 }, timeouts: { deadlineMs: 5_000, attemptMs: 2_000 } });
  });
  afterAll(() => env.cleanup());

  const requests: DecisionsRequest[] = [
    { model: 'sandbox/baseline-text', state: 'The parcel came two days late.', questions: { late: { type: 'noul', instructions: 'Was it late?' } } },
    {
      model: 'sandbox/baseline-text',
      state: 'Überweisung fehlgeschlagen — 残高不足 🙁. '.repeat(40),
      questions: {
        topic: { type: 'choice', instructions: 'What is it about?', criteria: { payments: 'money', travel: null, food: null } },
        tone: { type: 'score', instructions: 'How upset?', criteria: ['calm', 'annoyed', 'angry'] },
        urgent: { type: 'noul', instructions: 'Is it urgent?' },
      },
    },
    { model: 'sandbox/decider', state: 'x', questions: { a: { type: 'noul', instructions: 'y' } }, provider: { only: ['sandbox-oracle'] } },
    // A decision model on each of its native hosts, falling back across the wire families.
    {
      model: 'sandbox/decider',
      state: 'The parcel came two days late and the box was crushed.',
      questions: {
        late: { type: 'noul', instructions: 'Was it late?' },
        tone: { type: 'score', instructions: 'How upset?', criteria: ['calm', 'annoyed', 'angry'] },
      },
    },
    { model: 'sandbox/baseline-text', state: 'A short note.', questions: { a: { type: 'noul', instructions: 'Short?' } }, provider: { sort: 'price' } },
  ] as DecisionsRequest[];

  it('never below the real cost, on success or failure, over many requests', async () => {
    requests.push({
      model: 'sandbox/baseline-vision',
      state: [
        { type: 'image_url', image_url: { url: pngWithRect(64, 48, { x: 10, y: 8, w: 30, h: 20 }) } },
        { type: 'text', text: 'A card on a table.' },
      ],
      questions: { card: { type: 'box', instructions: 'the card' }, round: { type: 'noul', instructions: 'Is there a card?' } },
    } as DecisionsRequest);
    let checked = 0;
    for (let i = 0; i < 60; i += 1) {
      const request = requests[i % requests.length]!;
      let reserved = -1;
      const cost = await env.core.decisions.decide(request, { requestId: `r${i}`, admit: (maxCost) => (reserved = maxCost()) }).then(
        (outcome) => outcome.response.usage.cost,
        (error: unknown) => usageOf(error)?.cost ?? 0,
      );
      expect(reserved).toBeGreaterThan(0);
      expect(cost).toBeDefined();
      expect(cost!).toBeLessThanOrEqual(reserved);
      checked += 1;
    }
    expect(checked).toBe(60);
  });
});

/**
 * A provider at the bound (maxBillingProvider): what it is paid is exactly the reservation; any
 * part the reservation leaves out makes the request cost more than it held.
 */
describe('the reservation against a provider that costs the most it can', () => {
  let env: TempCore;
  let provider: Awaited<ReturnType<typeof maxBillingProvider>>;

  beforeAll(async () => {
    provider = await maxBillingProvider();
    const url = provider.url;
    env = await tempCore({ sandbox: { seed: 1, failures: false, timeScale: 0.01 }, timeouts: { deadlineMs: 5_000, attemptMs: 2_000 } });
    const endpoint = (provider: string, prompt: string, completion: string, extra: Record<string, string> = {}) => ({
      model_id: 'acme/judge',
      provider,
      upstream_model: 'judge-1',
      pricing: { prompt, completion, ...extra },
      supported_parameters: ['logprobs', 'top_logprobs', 'max_tokens'],
    });
    await env.core.replaceCatalogFile(
      CatalogFileSchema.parse({
        version: 1,
        providers: [
          { slug: 'acme', name: 'Acme', wire_format: 'openai', base_url: `${url}/v1`, local: true },
          { slug: 'other', name: 'Other', wire_format: 'openai', base_url: `${url}/v1`, local: true },
        ],
        models: [
          {
            id: 'acme/judge',
            name: 'Judge',
            created: 1,
            architecture: { input_modalities: ['text'], output_modalities: ['text'], modality: 'text->text', instruct_type: null, tokenizer: null },
          },
        ],
        endpoints: [endpoint('acme', '0.000001', '0.000002', { request: '0.0001' }), endpoint('other', '0.000003', '0.000001')],
      }),
    );
  });
  afterAll(async () => {
    await env.cleanup();
    await provider.close();
  });

  it('every question on every endpoint with all three calls costs exactly what was reserved', async () => {
    const request = {
      model: 'acme/judge',
      state: 'Überweisung fehlgeschlagen — 残高不足 🙁. The parcel came two days late.',
      questions: {
        late: { type: 'noul', instructions: 'Was it late?' },
        topic: { type: 'choice', instructions: 'What is it about?', criteria: { payments: 'money', travel: null, food: null } },
      },
    } as DecisionsRequest;
    let reserved = -1;
    const error = await env.core.decisions.decide(request, { requestId: 'worst', admit: (maxCost) => (reserved = maxCost()) }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502 });
    // Two questions, two endpoints, three calls each.
    expect(provider.billed).toHaveLength(12);
    const cost = usageOf(error)!.cost!;
    expect(cost).toBeLessThanOrEqual(reserved * (1 + 1e-9));
    expect(cost).toBeGreaterThanOrEqual(reserved * (1 - 1e-9));
  });
});
