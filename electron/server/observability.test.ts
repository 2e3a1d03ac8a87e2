import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from '../test-support/postgres';
import { tempDir } from '../test-support/temp-core';
import { startServer, type RunningServer } from './start-server';

const DECISION = {
  model: 'sandbox/baseline-text',
  state: 'The parcel came two days late.',
  questions: { late: { type: 'noul', instructions: 'Was it late?' } },
};

/** One sample of a metric from Prometheus's text format, by name and labels; 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(\{([^}]*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = (match[3] ?? '').split(',').filter(Boolean);
    if (wanted.every((w) => have.includes(w)) && have.length === wanted.length) return Number(match[4]);
  }
  return 0;
}

describe("what a team's operators check first", () => {
  let server: RunningServer;
  let postgres: TestPostgres;
  const dirs = [tempDir(), tempDir()];

  beforeAll(async () => {
    postgres = await startPostgres();
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      dataDir: dirs[0]!.path,
      database: await postgres.createDatabase('observed'),
      rendererDir: dirs[1]!.path,
      version: 'test',
      overrideGlobalObjects: false,
      sandbox: { seed: 3, failures: false, timeScale: 0 },
    });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    postgres?.stop();
    for (const d of dirs) d.cleanup();
  });

  it('/healthz says the process answers; /readyz that its database does, and 503 naming it when it does not', async () => {
    expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'ready',
      database: { ok: true, where: expect.stringMatching(/^PostgreSQL at postgres:\/\/verdict@127\.0\.0\.1:\d+\/observed$/) },
    });
  });

  it('/metrics counts API requests by route and status, refusals by reason, answers by provider, and spend', async () => {
    const { key } = await server.core.apiKeys.create('limited', 'standard', { credit_limit: null, rate_limit_rpm: 2 });
    const ask = () =>
      fetch(`${server.url}/api/alpha/decisions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(DECISION),
      });
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await ask()).status);
    expect(statuses).toEqual([200, 200, 429]);
    const noKey = await fetch(`${server.url}/api/alpha/decisions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(DECISION),
    });
    expect(noKey.status).toBe(401);

    const metrics = await fetch(`${server.url}/metrics`);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await metrics.text();
    expect(sample(text, 'verdict_http_requests_total', { route: '/api/alpha/decisions', status: '200' })).toBe(2);
    expect(sample(text, 'verdict_http_requests_total', { route: '/api/alpha/decisions', status: '429' })).toBe(1);
    expect(sample(text, 'verdict_http_requests_total', { route: '/api/alpha/decisions', status: '401' })).toBe(1);
    expect(sample(text, 'verdict_admission_refusals_total', { reason: 'rate' })).toBe(1);
    expect(sample(text, 'verdict_admission_refusals_total', { reason: 'key' })).toBe(1);
    expect(sample(text, 'verdict_http_request_duration_seconds_count', { route: '/api/alpha/decisions' })).toBe(4);
    // Both answers reached a simulated provider; what they cost is the spend.
    const byProvider = text.split('\n').filter((l) => l.startsWith('verdict_decisions_total{'));
    expect(byProvider.reduce((n, l) => n + Number(l.split(' ').at(-1)), 0)).toBe(2);
    expect(byProvider.every((l) => l.includes('outcome="ok"'))).toBe(true);
    const charged = (await server.core.apiKeys.list()).find((k) => k.name === 'limited')!.spent;
    expect(charged).toBeGreaterThan(0);
    expect(sample(text, 'verdict_spend_usd_total')).toBeCloseTo(charged, 6);
    // The process's own figures, and nothing that names a key or a request.
    expect(sample(text, 'verdict_process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(text).not.toContain(key);
    expect(text).not.toMatch(/key_id|user=/);
  });

  it('/readyz turns 503, naming the database, when PostgreSQL stops answering; a request that must write is refused with 503, never 500', async () => {
    const { key } = await server.core.apiKeys.create('before the stop', 'standard');
    postgres.stop();
    const started = Date.now();
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({
      status: 'unready',
      database: { ok: false, where: expect.stringMatching(/^PostgreSQL at /), error: expect.any(String) },
    });
    expect(Date.now() - started).toBeLessThan(1_500);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const refused = await fetch(`${server.url}/api/alpha/decisions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(DECISION),
    });
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/^The database did not answer; nothing of this request was kept/);
  });
});
