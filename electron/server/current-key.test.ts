import { OpenRouter } from '@openrouter/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/temp-core';
import { startServer, type RunningServer } from './start-server';

/** `GET /api/v1/key` through the real server, read by the official OpenRouter client as it reads OpenRouter's. */
describe('GET /api/v1/key', () => {
  let server: RunningServer;
  const dirs = [tempDir(), tempDir()];
  let limited: { key: string; id: string };
  let open: string;
  beforeAll(async () => {
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      dataDir: dirs[0]!.path,
      rendererDir: dirs[1]!.path,
      version: 'test',
      overrideGlobalObjects: false,
      sandbox: { seed: 9, failures: false, timeScale: 0 },
    });
    await server.core.handlers['settings.update']({ sandbox: 'on' });
    const created = await server.core.apiKeys.create('nightly', 'standard', { credit_limit: 2, rate_limit_rpm: 600 });
    limited = { key: created.key, id: created.info.id };
    open = (await server.core.apiKeys.create('open', 'management')).key;
  });
  afterAll(async () => {
    await server.close();
    for (const d of dirs) d.cleanup();
  });

  const client = (apiKey: string) => new OpenRouter({ apiKey, serverURL: `${server.url}/api/v1` });

  it("the official client reads a key's label, limit, what remains and its rate limit, and each answered request's cost in its usage", async () => {
    const before = await client(limited.key).apiKeys.getCurrentKeyMetadata();
    expect(before.data).toMatchObject({
      label: expect.stringMatching(/…|\.\.\./),
      limit: 2,
      limitRemaining: 2,
      usage: 0,
      usageDaily: 0,
      isManagementKey: false,
    });
    expect(before.data.rateLimit).toMatchObject({ requests: 600, interval: '1m' });
    let cost = 0;
    for (let i = 0; i < 3; i += 1) {
      const response = await fetch(`${server.url}/api/alpha/decisions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${limited.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'sandbox/baseline-text', state: `parcel ${i} came late`, questions: { late: { type: 'noul', instructions: 'Late?' } } }),
      });
      cost += ((await response.json()) as { usage: { cost: number } }).usage.cost;
    }
    expect(cost).toBeGreaterThan(0);
    const after = (await client(limited.key).apiKeys.getCurrentKeyMetadata()).data;
    // Figures in whole micro-dollars: within half of one of the exact sum (the ledger adds the charges
    // in its own order, so a sum on a half rounds either way).
    const near = (figure: number | null | undefined, exact: number) => {
      expect(figure).toBe(Number(figure!.toFixed(6)));
      expect(Math.abs(figure! - exact)).toBeLessThanOrEqual(5e-7 + 1e-12);
    };
    near(after.usage, cost);
    // Every charge today is in the day, the week and the month.
    for (const figure of [after.usageDaily, after.usageWeekly, after.usageMonthly]) near(figure, cost);
    near(after.limitRemaining, 2 - cost);
  });

  it('a key with no limits says so, a management key says what it is, and no key is refused', async () => {
    const data = (await client(open).apiKeys.getCurrentKeyMetadata()).data;
    expect(data).toMatchObject({ limit: null, limitRemaining: null, isManagementKey: true });
    expect(data.rateLimit.requests).toBe(-1);
    const refused = await fetch(`${server.url}/api/v1/key`, { headers: { authorization: 'Bearer vk-nope' } });
    expect(refused.status).toBe(401);
  });
});
