import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempCore, type TempCore } from '../../test-support/temp-core';
import { countTokens } from '../decisions/tokens';

/**
 * What Measure now will cost, said before the click: each endpoint's measuring call priced by hand
 * here from the catalog's prices, and the promise "at most" held against what measuring then cost.
 */
describe("Measure now's cost before the click", () => {
  let env: TempCore;
  beforeAll(async () => {
    env = await tempCore({ sandbox: { seed: 3, failures: false, timeScale: 0 } });
  });
  afterAll(() => env.cleanup());

  it("prices each endpoint's chat call at its prompt and its 32-token output cap, three calls each", async () => {
    const model = 'sandbox/cheap-mini';
    const endpoints = env.core.catalog.endpointsOf(model);
    expect(endpoints.length).toBeGreaterThan(1);
    expect(endpoints.every((e) => !e.host)).toBe(true);
    // The prompt: its tokens and the chat frame (3 tokens a message, 3 to prime the reply, counted for two messages).
    const prompt = (await countTokens('Write a short sentence.')) + 9;
    const byHand = endpoints.reduce((sum, e) => sum + 3 * (prompt * e.prices.prompt! + 32 * e.prices.completion! + (e.prices.request ?? 0)), 0);
    const cost = await env.core.handlers['endpoints.probeCost']({ model, calls: 3 });
    expect(cost).toMatchObject({ endpoints: endpoints.length, calls: 3 * endpoints.length, unpriced: [] });
    expect(Math.abs(cost.usd_at_most! - byHand) / byHand).toBeLessThan(1e-9);
  });

  it('is at most what measuring then costs, on a model with a Decisions host too', async () => {
    expect(env.core.catalog.endpointsOf('sandbox/decider').some((e) => e.host)).toBe(true);
    for (const model of ['sandbox/cheap-mini', 'sandbox/decider']) {
      const said = await env.core.handlers['endpoints.probeCost']({ model, calls: 3 });
      const measured = await env.core.handlers['endpoints.probe']({ model, calls: 3 });
      expect(measured.failures, model).toBe(0);
      expect(measured.spent_usd, model).not.toBeNull();
      expect(measured.spent_usd!, model).toBeLessThanOrEqual(said.usd_at_most! * (1 + 1e-9));
      expect(measured.spent_usd!, model).toBeGreaterThan(0);
    }
  });

  it('names an unknown model', async () => {
    await expect(env.core.handlers['endpoints.probeCost']({ model: 'acme/nothing', calls: 3 })).rejects.toThrow(/acme\/nothing/);
  });
});
