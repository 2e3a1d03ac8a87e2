import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { QUANTIZATIONS, type ProviderPreferences } from '../../../shared/schemas/provider-preferences';
import { testEndpoint, testModel, testProvider } from '../../test-support/catalog-fixtures';
import { GatewayError } from '../errors';
import { expectedCost, matchesProvider, planRoute, type Candidate, type PlanInput } from './plan';

const SLUGS = ['alpha', 'beta', 'gamma', 'delta', 'omega'] as const;
const NEEDS = { parameters: ['logprobs'], promptTokens: 1000, completionTokens: 10, images: 0 };
const NOW = 1_800_000_000_000;
const PRIMARY = 'acme/small';

const priceArb = fc.option(fc.double({ min: 1e-9, max: 1e-4, noNaN: true }), { nil: null });
const stats = fc.option(
  fc.record({
    p50: fc.double({ min: 0.01, max: 20, noNaN: true }),
    p75: fc.double({ min: 0.01, max: 20, noNaN: true }),
    p90: fc.double({ min: 0.01, max: 20, noNaN: true }),
    p99: fc.double({ min: 0.01, max: 20, noNaN: true }),
  }),
  { nil: null },
);

const candidateArb: fc.Arbitrary<Candidate> = fc
  .record({
    slug: fc.constantFrom(...SLUGS),
    tag: fc.constantFrom('', 'turbo', 'eu'),
    secondModel: fc.boolean(),
    zdr: fc.constantFrom(true, false, null),
    collects: fc.constantFrom(true, false, null),
    prompt: priceArb,
    completion: priceArb,
    quantization: fc.option(fc.constantFrom(...QUANTIZATIONS), { nil: null }),
    logprobs: fc.boolean(),
    distillable: fc.constantFrom(true, false, null),
    latency: stats,
    throughput: stats,
    paused: fc.boolean(),
    recentFault: fc.boolean(),
    attempts1d: fc.nat(100),
    success: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null }),
  })
  .map((r) => {
    const provider = testProvider(r.slug, { data_policy: { zdr: r.zdr, collects_data: r.collects } });
    const model = testModel(r.secondModel ? 'acme/other' : PRIMARY, { distillable: r.distillable });
    const endpoint = testEndpoint({
      provider,
      model,
      tag: r.tag === '' ? r.slug : r.tag,
      prices: { prompt: r.prompt, completion: r.completion },
      quantization: r.quantization,
      supportedParameters: r.logprobs ? ['logprobs', 'top_logprobs'] : [],
    });
    return {
      endpoint,
      latency: r.latency,
      throughput: r.throughput,
      successRate1d: r.success,
      attempts1d: r.attempts1d,
      recentFaultAt: r.recentFault ? NOW - 5_000 : null,
      paused: r.paused,
      cooldownUntil: null,
      lastFailureAt: r.paused ? NOW - 1_000 : null,
    };
  });

/** Unique endpoint ids, as a catalog guarantees. */
const candidatesArb = fc.uniqueArray(candidateArb, { minLength: 1, maxLength: 12, selector: (c) => c.endpoint.id });

const prefsArb: fc.Arbitrary<ProviderPreferences> = fc.record(
  {
    allow_fallbacks: fc.boolean(),
    data_collection: fc.constantFrom('allow' as const, 'deny' as const),
    enforce_distillable_text: fc.boolean(),
    only: fc.array(fc.constantFrom(...SLUGS, 'beta/turbo', 'nobody'), { maxLength: 3 }),
    ignore: fc.array(fc.constantFrom(...SLUGS, 'alpha/eu'), { maxLength: 2 }),
    order: fc.array(fc.constantFrom(...SLUGS, 'gamma/turbo'), { maxLength: 3 }),
    max_price: fc.record({ prompt: fc.constantFrom('1', '10', '50'), completion: fc.constantFrom('5', '100') }, { requiredKeys: [] }),
    quantizations: fc.array(fc.constantFrom(...QUANTIZATIONS), { minLength: 1, maxLength: 4 }),
    require_parameters: fc.boolean(),
    sort: fc.oneof(
      fc.constantFrom('price' as const, 'latency' as const, 'throughput' as const, 'exacto' as const),
      fc.record({ by: fc.constantFrom('price' as const, 'latency' as const), partition: fc.constantFrom('model' as const, 'none' as const) }),
    ),
    zdr: fc.boolean(),
    preferred_max_latency: fc.oneof(fc.double({ min: 0.1, max: 10, noNaN: true }), fc.record({ p90: fc.double({ min: 0.1, max: 10, noNaN: true }) })),
    preferred_min_throughput: fc.double({ min: 1, max: 20, noNaN: true }),
  },
  { requiredKeys: [] },
);

function input(candidates: Candidate[], preferences: ProviderPreferences | undefined, seed = 0.42): PlanInput {
  return { modelId: PRIMARY, candidates, preferences, account: { only: [], ignore: [], zdr: false }, needs: NEEDS, now: NOW, random: () => seed };
}

/** Runs the plan; a GatewayError (nothing can serve) counts as an empty plan. */
function attemptsOf(candidates: Candidate[], prefs: ProviderPreferences | undefined) {
  try {
    return planRoute(input(candidates, prefs)).attempts;
  } catch (error) {
    if (error instanceof GatewayError) return [];
    throw error;
  }
}

describe('planRoute properties', () => {
  it('never violates a hard filter', () => {
    fc.assert(
      fc.property(candidatesArb, prefsArb, (candidates, prefs) => {
        for (const { endpoint: e } of attemptsOf(candidates, prefs)) {
          if (prefs?.zdr) expect(e.provider.data_policy.zdr).toBe(true);
          if (prefs?.data_collection === 'deny') expect(e.provider.data_policy.collects_data).toBe(false);
          if (prefs?.quantizations) expect(prefs.quantizations).toContain(e.quantization ?? 'unknown');
          if (prefs?.only && prefs.only.length > 0) expect(prefs.only.some((o) => matchesProvider(e, o))).toBe(true);
          for (const name of prefs?.ignore ?? []) expect(matchesProvider(e, name)).toBe(false);
          if (prefs?.max_price?.prompt) expect(e.prices.prompt! * 1e6).toBeLessThanOrEqual(Number(prefs.max_price.prompt));
          if (prefs?.max_price?.completion) expect(e.prices.completion! * 1e6).toBeLessThanOrEqual(Number(prefs.max_price.completion));
          if (prefs?.require_parameters) expect(e.supportedParameters).toContain('logprobs');
          if (prefs?.enforce_distillable_text) expect(e.model.distillable).toBe(true);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('respects order: named providers come first, in the order given', () => {
    fc.assert(
      fc.property(candidatesArb, fc.array(fc.constantFrom(...SLUGS), { minLength: 1, maxLength: 3 }), (candidates, order) => {
        const attempts = attemptsOf(candidates, { order });
        const rank = (a: (typeof attempts)[number]) => {
          const i = order.findIndex((name) => matchesProvider(a.endpoint, name));
          return i === -1 ? Number.POSITIVE_INFINITY : i;
        };
        const available = attempts.filter((a) => !a.reason.includes('paused') && !a.reason.includes('tried last'));
        const ranks = available.map(rank);
        for (let i = 1; i < ranks.length; i += 1) expect(ranks[i]!).toBeGreaterThanOrEqual(ranks[i - 1]!);
      }),
      { numRuns: 300 },
    );
  });

  it('with allow_fallbacks false and no order, never tries a second endpoint', () => {
    fc.assert(
      fc.property(candidatesArb, prefsArb, (candidates, prefs) => {
        const attempts = attemptsOf(candidates, { ...prefs, allow_fallbacks: false, order: null });
        expect(attempts.length).toBeLessThanOrEqual(1);
      }),
      { numRuns: 300 },
    );
  });

  it('with allow_fallbacks false and an order, tries only the ordered providers', () => {
    fc.assert(
      fc.property(candidatesArb, fc.array(fc.constantFrom(...SLUGS), { minLength: 1, maxLength: 2 }), (candidates, order) => {
        for (const a of attemptsOf(candidates, { order, allow_fallbacks: false })) {
          expect(order.some((name) => matchesProvider(a.endpoint, name))).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps deprioritised endpoints reachable: every eligible endpoint is in the plan', () => {
    fc.assert(
      fc.property(
        candidatesArb,
        fc.double({ min: 0.1, max: 10, noNaN: true }),
        fc.double({ min: 1, max: 20, noNaN: true }),
        (candidates, latency, throughput) => {
          const attempts = attemptsOf(candidates, { preferred_max_latency: latency, preferred_min_throughput: { p50: throughput } });
          expect(new Set(attempts.map((a) => a.endpoint.id))).toEqual(new Set(candidates.map((c) => c.endpoint.id)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('partition "model" keeps the requested model first; "none" sorts all endpoints together', () => {
    fc.assert(
      fc.property(candidatesArb, (candidates) => {
        const byModel = attemptsOf(candidates, { sort: { by: 'price', partition: 'model' } }).filter((a) => a.reason.startsWith('sorted'));
        const firstOther = byModel.findIndex((a) => a.endpoint.model.id !== PRIMARY);
        if (firstOther !== -1) expect(byModel.slice(firstOther).every((a) => a.endpoint.model.id !== PRIMARY)).toBe(true);
        const together = attemptsOf(candidates, { sort: { by: 'price', partition: 'none' } }).filter((a) => a.reason.startsWith('sorted'));
        const costs = together.map((a) => expectedCost(a.endpoint, NEEDS));
        const tiers = together.map((a) => (a.reason.includes('misses') ? 2 : a.reason.includes('no measurements') ? 1 : 0));
        for (let i = 1; i < costs.length; i += 1) {
          if (tiers[i] === tiers[i - 1]) expect(costs[i]!).toBeGreaterThanOrEqual(costs[i - 1]!);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('is deterministic for the same input and random draw', () => {
    fc.assert(
      fc.property(candidatesArb, prefsArb, fc.double({ min: 0, max: 0.999, noNaN: true }), (candidates, prefs, seed) => {
        const run = () => {
          try {
            return planRoute(input(candidates, prefs, seed)).attempts.map((a) => a.endpoint.id);
          } catch (e) {
            return (e as Error).message;
          }
        };
        expect(run()).toEqual(run());
      }),
      { numRuns: 200 },
    );
  });
});

describe('planRoute examples', () => {
  const model = testModel(PRIMARY);
  const cheap = testEndpoint({
    provider: testProvider('cheap', { data_policy: { zdr: false, collects_data: true } }),
    model,
    prices: { prompt: 1e-7, completion: 2e-7 },
  });
  const pricey = testEndpoint({
    provider: testProvider('pricey', { data_policy: { zdr: true, collects_data: false } }),
    model,
    prices: { prompt: 1e-6, completion: 2e-6 },
  });
  const candidate = (endpoint: typeof cheap, extra: Partial<Candidate> = {}): Candidate => ({
    endpoint,
    latency: null,
    throughput: null,
    successRate1d: null,
    attempts1d: 0,
    recentFaultAt: null,
    paused: false,
    cooldownUntil: null,
    lastFailureAt: null,
    ...extra,
  });

  it('load balancing picks by 1/price² and keeps the rest as fallbacks', () => {
    // cheap costs 1/10 of pricey, so it weighs 100 times more: 100/101 of the draws.
    const low = planRoute(input([candidate(cheap), candidate(pricey)], undefined, 0.5));
    expect(low.strategy).toBe('load-balance');
    expect(low.attempts.map((a) => a.endpoint.provider.slug)).toEqual(['cheap', 'pricey']);
    const high = planRoute(input([candidate(cheap), candidate(pricey)], undefined, 0.995));
    expect(high.attempts.map((a) => a.endpoint.provider.slug)).toEqual(['pricey', 'cheap']);
    expect(high.attempts[0]!.reason).toMatch(/load balancing/);
  });

  it('skips an endpoint that failed in the last 30 s when choosing, but keeps it as a fallback', () => {
    const plan = planRoute(input([candidate(cheap, { recentFaultAt: NOW - 10_000 }), candidate(pricey)], undefined, 0.1));
    expect(plan.attempts.map((a) => a.endpoint.provider.slug)).toEqual(['pricey', 'cheap']);
    expect(plan.attempts[1]!.reason).toMatch(/failed in the last 30 s/);
  });

  it('says which constraint emptied the set, as a 404', () => {
    try {
      planRoute(input([candidate(cheap)], { zdr: true }));
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(GatewayError);
      expect((error as GatewayError).status).toBe(404);
      expect((error as GatewayError).message).toMatch(/zdr excluded 1/);
    }
  });

  it('max_price.request compares the fee paid on every upstream call of the request', () => {
    const fee = testEndpoint({ provider: testProvider('fee'), model, prices: { prompt: 1e-7, completion: 2e-7, request: 0.001 } });
    const prefs = { max_price: { request: '0.0025' } };
    // One call pays 0.001, within 0.0025; three questions make three calls, 0.003 in fees: over.
    expect(planRoute({ ...input([candidate(fee)], prefs), needs: { ...NEEDS, calls: 1 } }).attempts).toHaveLength(1);
    expect(planRoute({ ...input([candidate(fee)], prefs), needs: { ...NEEDS, calls: 2 } }).attempts).toHaveLength(1);
    expect(() => planRoute({ ...input([candidate(fee)], prefs), needs: { ...NEEDS, calls: 3 } })).toThrow(/max_price/);
  });

  it('contradictory preferences are a 400', () => {
    expect(() => planRoute(input([candidate(cheap)], { only: ['cheap'], ignore: ['cheap'] }))).toThrow(/Contradictory/);
  });

  it('account-wide ZDR cannot be turned off by a request', () => {
    const plan = planRoute({ ...input([candidate(cheap), candidate(pricey)], { zdr: false }), account: { only: [], ignore: [], zdr: true } });
    expect(plan.attempts.map((a) => a.endpoint.provider.slug)).toEqual(['pricey']);
  });

  it('paused endpoints go last; when all are paused the least recently failed is tried', () => {
    const plan = planRoute(input([candidate(cheap, { paused: true, lastFailureAt: NOW - 1000 }), candidate(pricey)], undefined));
    expect(plan.attempts.map((a) => a.endpoint.provider.slug)).toEqual(['pricey', 'cheap']);
    const allPaused = planRoute(
      input([candidate(cheap, { paused: true, lastFailureAt: NOW - 1000 }), candidate(pricey, { paused: true, lastFailureAt: NOW - 9000 })], {
        allow_fallbacks: false,
      }),
    );
    expect(allPaused.attempts.map((a) => a.endpoint.provider.slug)).toEqual(['pricey']);
  });

  it('forwards only the matched provider its options', () => {
    const plan = planRoute(input([candidate(cheap), candidate(pricey)], { sort: 'price', options: { pricey: { seed: 1 }, cheap: { speed: 'max' } } }));
    expect(plan.attempts.map((a) => [a.endpoint.provider.slug, a.options])).toEqual([
      ['cheap', { speed: 'max' }],
      ['pricey', { seed: 1 }],
    ]);
  });

  it('a tagged slug matches only that endpoint; display names match too', () => {
    const eu = testEndpoint({ provider: testProvider('cheap'), model, tag: 'eu', prices: { prompt: 1e-7, completion: 1e-7 } });
    expect(matchesProvider(eu, 'cheap')).toBe(true);
    expect(matchesProvider(eu, 'cheap/eu')).toBe(true);
    expect(matchesProvider(eu, 'cheap/us')).toBe(false);
    expect(matchesProvider(eu, 'CHEAP')).toBe(true);
  });
});
