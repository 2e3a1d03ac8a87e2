import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempCore, type TempCore } from '../../test-support/temp-core';
import type { DecisionsRequest } from '../../../shared/schemas/decisions-request';
import { CostModel, summedRange, type EndpointFare } from './cost-model';

/**
 * The cost model on the simulated providers' catalog and the core's own router, with the fault
 * rates given here (a simulated provider's are its profile's; these are chosen so the expectation
 * can be worked out by hand).
 */
describe('the cost model', () => {
  let env: TempCore;
  beforeAll(async () => {
    env = await tempCore({ sandbox: { seed: 1, failures: false, timeScale: 0 } });
  });
  afterAll(() => env.cleanup());

  const traffic = { input: 1000, output: 0 };
  const modelOf = (fares: Record<string, Partial<EndpointFare>>) =>
    new CostModel({
      catalog: env.core.catalog,
      router: env.core.router,
      upstreams: env.core.upstreams,
      // Requests a day apart unless a fare says otherwise: no fault outlives the next request.
      scripted: (e) => ({ faultRate: 0, rateLimitRate: 0, retryAfterMs: 0, latencyMs: 86_400_000, ...fares[e.provider.slug] }),
    });
  const prices = () =>
    Object.fromEntries(
      env.core.catalog.endpointsOf('sandbox/decider').map((e) => [e.provider.slug, traffic.input * e.prices.prompt! + (e.prices.request ?? 0)]),
    );

  it('prices 1,000 requests as load balancing spreads them: each endpoint by 1/price², nothing failing', () => {
    const c = prices();
    const w = Object.fromEntries(Object.entries(c).map(([slug, usd]) => [slug, 1 / usd ** 2]));
    const total = Object.values(w).reduce((a, b) => a + b, 0);
    const byHand = 1000 * Object.keys(c).reduce((s, slug) => s + (w[slug]! / total) * c[slug]!, 0);
    const cost = modelOf({}).perThousand('sandbox/decider', traffic);
    expect(Math.abs(cost.usd! - byHand) / byHand).toBeLessThan(0.01);
    expect(cost.low!).toBeLessThanOrEqual(cost.usd!);
    expect(cost.high!).toBeGreaterThanOrEqual(cost.usd!);
  });

  it('a failing cheapest endpoint hands its failures to the next cheapest, and the figure rises by what they cost there', () => {
    const c = prices();
    const [cheapest, next] = Object.keys(c).sort((a, b) => c[a]! - c[b]!);
    const w = Object.fromEntries(Object.entries(c).map(([slug, usd]) => [slug, 1 / usd ** 2]));
    const total = Object.values(w).reduce((a, b) => a + b, 0);
    // Picked first with its weight, cheapest answers half the time; the other half go to the next by price.
    const perRequest = Object.keys(c).reduce((s, slug) => s + (w[slug]! / total) * (slug === cheapest ? 0.5 * c[slug]! + 0.5 * c[next!]! : c[slug]!), 0);
    const cost = modelOf({ [cheapest!]: { faultRate: 0.5 } }).perThousand('sandbox/decider', traffic);
    expect(Math.abs(cost.usd! - 1000 * perRequest) / (1000 * perRequest)).toBeLessThan(0.01);
    expect(cost.usd!).toBeGreaterThan(modelOf({}).perThousand('sandbox/decider', traffic).usd!);
  });

  it('under load, a fault keeps the cheapest out of load balancing for 30 s: dearer, and the range says how much one run may vary', () => {
    const c = prices();
    const cheapest = Object.keys(c).sort((a, b) => c[a]! - c[b]!)[0]!;
    // 1% faults; 20 ms a request: 1,000 requests in 20 s, so one fault moves the rest of a run.
    const busy = modelOf(
      Object.fromEntries(Object.keys(c).map((slug) => [slug, { latencyMs: 20, ...(slug === cheapest ? { faultRate: 0.01 } : {}) }])),
    ).perThousand('sandbox/decider', traffic);
    const far = modelOf({ [cheapest]: { faultRate: 0.01 } }).perThousand('sandbox/decider', traffic);
    expect(busy.usd!).toBeGreaterThan(far.usd! * 1.05);
    expect(busy.high! - busy.low!).toBeGreaterThan(far.high! - far.low!);
    expect(busy.rate).toMatch(/^50 requests a second \(1 at a time, 20 ms each/);
  });

  it("per 1,000 requests at the pace the user's requests went: four at a time cover more of a fault's 30 s than one at a time", () => {
    const c = prices();
    const cheapest = Object.keys(c).sort((a, b) => c[a]! - c[b]!)[0]!;
    // 1% faults on the cheapest; requests measured at 200 ms each.
    const model = modelOf(Object.fromEntries(Object.keys(c).map((slug) => [slug, { latencyMs: 200, ...(slug === cheapest ? { faultRate: 0.01 } : {}) }])));
    const itemTime = () => ({ ms: 200, source: 'measured here' });
    const one = model.perThousand('sandbox/decider', traffic, undefined, { concurrency: 1, itemTime });
    const four = model.perThousand('sandbox/decider', traffic, undefined, { concurrency: 4, itemTime });
    expect(one.rate).toMatch(/^5\.0 requests a second \(1 at a time, 200 ms each, measured here\)$/);
    expect(four.rate).toMatch(/^20 requests a second \(4 at a time, 200 ms each, measured here\)$/);
    expect(four.usd!).toBeGreaterThan(one.usd! * 1.02);
    // Without a measured pace: one at a time at the endpoints' time to a first token, as before.
    expect(model.perThousand('sandbox/decider', traffic).rate).toMatch(
      /^5\.0 requests a second \(1 at a time, 200 ms each, the endpoints' mean time to a first token\)$/,
    );
  });

  it("a run's pace is its items' measured time when there is one, and its workers are shared by its models", async () => {
    const c = prices();
    const cheapest = Object.keys(c).sort((a, b) => c[a]! - c[b]!)[0]!;
    const request = { model: 'sandbox/decider', state: 'The parcel came two days late.', questions: { late: { type: 'noul', instructions: 'Was it late?' } } };
    // 1% faults on the cheapest and 20 ms to a first token everywhere, as in the test above.
    const model = modelOf(Object.fromEntries(Object.keys(c).map((slug) => [slug, { latencyMs: 20, ...(slug === cheapest ? { faultRate: 0.01 } : {}) }])));
    const sample = [request as DecisionsRequest];
    const byFirstToken = await model.ofRequests(sample, 1000, { concurrency: 1, itemTime: null });
    expect(byFirstToken.rate).toMatch(
      /^50 requests a second \(1 at a time, 20 ms each, the endpoints' mean time to a first token\), and at a third to 3 times that pace$/,
    );
    // Two models share one worker: each sends at half the pace.
    const shared = await model.ofRequests(sample, 1000, { concurrency: 0.5, itemTime: null });
    expect(shared.rate).toMatch(/^25 requests a second \(0\.5 at a time, 20 ms each/);
    // Items measured at a minute each: a fault's 30 s cover one request, not the rest of the run, so the run costs less.
    const slow = await model.ofRequests(sample, 1000, { concurrency: 1, itemTime: () => ({ ms: 60_000, source: 'measured here' }) });
    expect(slow.rate).toMatch(/^0\.017 requests a second \(1 at a time, 60000 ms each, measured here\), and at a third to 3 times that pace$/);
    expect(byFirstToken.usd!).toBeGreaterThan(slow.usd! * 1.05);
  });

  it("with the providers its items' time was measured on, each endpoint takes that time in proportion to its time to a first token", async () => {
    const c = prices();
    const cheapest = Object.keys(c).sort((a, b) => c[a]! - c[b]!)[0]!;
    const name = env.core.catalog.endpointsOf('sandbox/decider').find((e) => e.provider.slug === cheapest)!.provider.name;
    const request = { model: 'sandbox/decider', state: 'The parcel came two days late.', questions: { late: { type: 'noul', instructions: 'Was it late?' } } };
    // The cheapest is slow (1 s to a first token) and fails 1% of the time; the others answer in 10 ms.
    const model = modelOf(
      Object.fromEntries(Object.keys(c).map((slug) => [slug, slug === cheapest ? { latencyMs: 1000, faultRate: 0.01 } : { latencyMs: 10 }])),
    );
    const sample = [request as DecisionsRequest];
    const itemTime = () => ({ ms: 1000, source: 'measured here' });
    // Items measured all on the cheapest, at 1 s: its fallbacks take 10 ms a request, so while it is
    // out for 30 s a hundred times as many requests go to them as when every request took 1 s.
    const mixed = await model.ofRequests(sample, 1000, { concurrency: 1, itemTime, mix: new Map([[name, 1]]) });
    const flat = await model.ofRequests(sample, 1000, { concurrency: 1, itemTime });
    expect(mixed.rate).toMatch(/measured here, on each endpoint in proportion to its time to a first token\)/);
    expect(flat.rate).not.toMatch(/in proportion/);
    expect(mixed.usd!).toBeGreaterThan(flat.usd! * 1.05);
    // A mix of providers whose speed is unknown scales nothing.
    const unknown = await model.ofRequests(sample, 1000, { concurrency: 1, itemTime, mix: new Map([['Nobody', 1]]) });
    expect(unknown.usd).toBe(flat.usd);
  });

  it('a run of several models: their ranges add up walk by walk, narrower than the sum of each range', () => {
    const a = { usd: 2, low: 1, high: 3, totals: [1, 3, 1, 3], input: 0, output: 0, rate: '' };
    const b = { usd: 2, low: 1, high: 3, totals: [3, 1, 1, 3], input: 0, output: 0, rate: '' };
    // Sums 4, 4, 2, 6, sorted 2, 4, 4, 6: the 2.5th and 97.5th percentiles by linear interpolation,
    // at positions 3 × 0.025 and 3 × 0.975 (2 + 0.075 × 2, 4 + 0.925 × 2).
    const range = summedRange([a, b]);
    expect(range.low).toBeCloseTo(2.15, 12);
    expect(range.high).toBeCloseTo(5.85, 12);
    expect(summedRange([a, { ...b, totals: null }])).toEqual({ low: null, high: null });
  });
});
