import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempCore, type TempCore } from '../../test-support/temp-core';

/** What ZDR would cost per 1,000 requests, asked of the cost model, against what the same model's answered requests cost. */
describe('usage.zdr_cost', () => {
  let env: TempCore;
  beforeAll(async () => {
    env = await tempCore({ sandbox: { seed: 5, failures: false, timeScale: 0 } });
  });
  afterAll(() => env.cleanup());

  it("prices 1,000 of the user's own requests at what they cost, and the ZDR route near what it then costs", async () => {
    const h = env.core.handlers;
    // A thousand requests: routing's draws between endpoints priced 0.15 to 1.2 leave about 2% of spread, not 5% as 200 did.
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      id: `t${i}`,
      state: `Ticket ${i}: the parcel ${'arrived late and the box was damaged '.repeat(1 + (i % 5))}`,
      expected: {},
    }));
    const dataset = await env.core.datasets.create('tickets', rows as never);
    const request = { model: 'sandbox/baseline-text', state: '', questions: { late: { type: 'noul' as const, instructions: 'Did it arrive late?' } } };
    const run = await env.core.evalRuns.start({ request, dataset_id: dataset.id, variants: [{ model: 'sandbox/baseline-text' }], concurrency: 8 });
    const done = await env.core.evalRuns.wait(run.id);
    expect(done.status).toBe('done');

    const costs = await h['usage.zdr_cost']({ typed: null });
    const row = costs.find((c) => c.model === 'sandbox/baseline-text')!;
    expect(row.traffic).toMatchObject({ source: 'measured', requests: 1000 });
    const measured = (1000 * done.spent_usd) / 1000;
    expect(row.measured).toBeCloseTo(measured, 12);
    expect(Math.abs(row.now!.usd - measured) / measured).toBeLessThan(0.1);
    // Nothing else has traffic, and nothing was typed: no other model is priced.
    expect(costs.map((c) => c.model)).toEqual(['sandbox/baseline-text']);
    // The list price is the cheapest endpoint's: routing spreads requests over dearer ones too.
    expect(row.list_now!).toBeLessThanOrEqual(row.now!.usd);

    // The same items again with ZDR required: the figure said what they would cost.
    const zdr = await env.core.evalRuns.start({
      request,
      dataset_id: dataset.id,
      variants: [{ model: 'sandbox/baseline-text', provider: { zdr: true } }],
      concurrency: 8,
    });
    const zdrDone = await env.core.evalRuns.wait(zdr.id);
    const actual = (1000 * zdrDone.spent_usd) / 1000;
    expect(row.zdr!.usd).toBeGreaterThan(row.now!.usd);
    expect(Math.abs(row.zdr!.usd - actual) / actual).toBeLessThan(0.1);
  });

  it('prices the typed tokens for models without traffic, ZDR only where an endpoint retains nothing', async () => {
    const costs = await env.core.handlers['usage.zdr_cost']({ typed: { input_tokens: 2000, output_tokens: 10 } });
    const typed = costs.filter((c) => c.traffic.source === 'typed');
    expect(typed.length).toBeGreaterThan(0);
    for (const c of typed) {
      const zdrEndpoints = env.core.catalog.endpointsOf(c.model).filter((e) => e.provider.data_policy.zdr === true);
      expect(c.zdr === null).toBe(zdrEndpoints.length === 0);
      if (c.zdr && c.now) expect(c.zdr.usd).toBeGreaterThanOrEqual(c.list_zdr! - 1e-12);
    }
  });
});
