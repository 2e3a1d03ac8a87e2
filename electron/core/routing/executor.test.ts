import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Cancellation } from '../cancel';
import { systemClock } from '../clock';
import { GatewayError } from '../errors';
import { EndpointMetrics } from '../metrics/endpoint-metrics';
import { SqliteMetricsStore } from '../store/sqlite/metrics-store';
import { UpstreamHttp } from '../providers/http';
import { openaiAdapter } from '../providers/openai/adapter';
import { Store } from '../store/sqlite/database';
import { OPEN_CAPABILITIES, testEndpoint, testModel, testProvider } from '../../test-support/catalog-fixtures';
import { ScriptedUpstream, type Script } from '../../test-support/scripted-upstream';
import { tempDir } from '../../test-support/temp-core';
import { ERROR_BODY, WIRE } from '../../test-support/wire-fixtures';
import { executePlan, type ExecuteOptions } from './executor';
import { HealthRegistry } from './health';
import type { Plan } from './plan';

const CHUNK = `data: ${JSON.stringify({ id: 'x', choices: [{ index: 0, delta: { content: 'Y' } }] })}\n\n`;

/** Each provider fault, what the caller gets when no endpoint is left, and the outcome recorded. */
const FAULTS: { name: string; script: Script; status: number; outcome: string }[] = [
  { name: 'refused connection', script: { kind: 'reset-before-headers' }, status: 502, outcome: 'connection' },
  { name: 'reset mid-body', script: { kind: 'reset-mid-body', status: 200, chunks: [CHUNK] }, status: 502, outcome: 'connection' },
  { name: 'timeout before first byte', script: { kind: 'stall-before-headers' }, status: 524, outcome: 'timeout' },
  { name: 'stall after first byte', script: { kind: 'stall-after-first-chunk', status: 200, chunks: [CHUNK] }, status: 524, outcome: 'timeout' },
  { name: '500', script: { kind: 'respond', status: 500, chunks: [ERROR_BODY.openai('boom')] }, status: 502, outcome: 'server_error' },
  { name: '503', script: { kind: 'respond', status: 503, chunks: [ERROR_BODY.openai('busy')] }, status: 529, outcome: 'overloaded' },
  { name: '529', script: { kind: 'respond', status: 529, chunks: [ERROR_BODY.openai('overloaded')] }, status: 529, outcome: 'overloaded' },
  {
    name: '429 with Retry-After',
    script: { kind: 'respond', status: 429, headers: { 'content-type': 'application/json', 'retry-after': '30' }, chunks: [ERROR_BODY.openai('rate limited')] },
    status: 429,
    outcome: 'rate_limited',
  },
  {
    name: 'malformed JSON',
    script: { kind: 'respond', status: 200, headers: { 'content-type': 'text/event-stream' }, chunks: ['data: {oops\n\n'] },
    status: 502,
    outcome: 'invalid_response',
  },
  {
    name: 'truncated body',
    script: { kind: 'respond', status: 200, headers: { 'content-type': 'text/event-stream' }, chunks: [CHUNK] },
    status: 502,
    outcome: 'invalid_response',
  },
];

describe('executor fault matrix', () => {
  let faulty: ScriptedUpstream;
  let healthy: ScriptedUpstream;
  let dir: ReturnType<typeof tempDir>;
  let store: Store;
  let metrics: EndpointMetrics;
  let health: HealthRegistry;
  const http = new UpstreamHttp(systemClock);
  const model = testModel('acme/small');

  beforeAll(async () => {
    faulty = await new ScriptedUpstream().start();
    healthy = await new ScriptedUpstream().start();
    // The HTTP client is loaded with the first upstream call (undici, on first use). Loaded inside
    // the matrix's first attempt, its load time on a slow machine counts against that attempt's
    // 300 ms, which then times out and leaves its script to the next test: load it here, untimed.
    healthy.script(WIRE.openai('Yes'));
    await openaiAdapter.chat!(
      { baseUrl: `${healthy.url}/v1`, model: 'm', apiKey: 'k', capabilities: OPEN_CAPABILITIES, host: null },
      { messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], maxTokens: 1 },
      { http, clock: systemClock, signal: new Cancellation() },
    );
  });
  afterAll(async () => {
    await http.close();
    await faulty.close();
    await healthy.close();
  });
  beforeEach(async () => {
    dir = tempDir();
    store = Store.open(join(dir.path, 'db.sqlite'));
    metrics = await EndpointMetrics.open(new SqliteMetricsStore(store), systemClock);
    health = new HealthRegistry(systemClock);
  });
  afterEach(async () => {
    await metrics.close();
    store.close();
    dir.cleanup();
  });

  const endpointAt = (slug: string, url: string) =>
    testEndpoint({
      provider: testProvider(slug, { base_url: `${url}/v1`, name: slug === 'faulty' ? 'Faulty' : 'Healthy' }),
      model,
      prices: { prompt: 1e-6, completion: 1e-6 },
    });
  const plan = (...endpoints: ReturnType<typeof endpointAt>[]): Plan => ({
    strategy: 'order',
    excluded: [],
    unplanned: 0,
    attempts: endpoints.map((endpoint) => ({ endpoint, reason: 'test', options: undefined })),
  });
  const options: ExecuteOptions = { requestId: 'r1', deadlineMs: 5_000, attemptTimeoutMs: 300 };
  const run = (p: Plan) =>
    executePlan(
      p,
      async (attempt, signal) => {
        const result = await openaiAdapter.chat!(
          { baseUrl: attempt.endpoint.provider.base_url, model: 'm', apiKey: 'k', capabilities: OPEN_CAPABILITIES, host: null },
          { messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], maxTokens: 1 },
          { http, clock: systemClock, signal },
        );
        return { value: result.text, usage: result.usage, timings: result.timings };
      },
      { clock: systemClock, health, metrics },
      options,
    );

  it.each(FAULTS)('$name: falls back to the next endpoint and records both attempts', async ({ script, outcome }) => {
    faulty.script(script);
    healthy.script(WIRE.openai('Yes'));
    const a = endpointAt('faulty', faulty.url);
    const b = endpointAt('healthy', healthy.url);
    const result = await run(plan(a, b));
    expect(result.value).toBe('Yes');
    expect(result.endpoint.provider.slug).toBe('healthy');
    expect(result.attempts.map((x) => x.outcome)).toEqual([outcome, 'ok']);
    // The failure is logged with its reason; both count in the endpoints' figures.
    store.flush();
    const rows = store.all<{ endpoint_id: string; outcome: string; provider_fault: number }>(
      'SELECT endpoint_id, outcome, provider_fault FROM attempts ORDER BY id',
    );
    expect(rows).toEqual([{ endpoint_id: a.id, outcome, provider_fault: 1 }]);
    expect(metrics.figures(a.id, { fresh: true })).toMatchObject({ attempts5m: 1, uptime5m: 0 });
    expect(metrics.figures(b.id, { fresh: true })).toMatchObject({ attempts5m: 1, uptime5m: 100 });
  });

  it.each(FAULTS)('$name: with nothing left the caller gets $status and a message naming the provider', async ({ script, status, outcome }) => {
    faulty.script(script);
    const error = (await run(plan(endpointAt('faulty', faulty.url))).catch((e: unknown) => e)) as GatewayError;
    expect(error).toBeInstanceOf(GatewayError);
    expect(error.status).toBe(status);
    expect(error.message).toMatch(/^All 1 endpoint tried failed: faulty: /);
    expect((error.metadata?.['attempts'] as { outcome: string }[])[0]!.outcome).toBe(outcome);
    if (status === 429) expect(error.headers?.['Retry-After']).toBe('30');
  });

  it('a 429 cools the endpoint down for its Retry-After', async () => {
    faulty.script(FAULTS.find((f) => f.status === 429)!.script);
    const a = endpointAt('faulty', faulty.url);
    await run(plan(a)).catch(() => undefined);
    // Read on the clock the registry keeps (performance's, which Date.now() drifts from by a few ms).
    const left = health.snapshot(a.id).cooldownUntil! - systemClock.now();
    expect(left).toBeGreaterThan(28_000);
    expect(left).toBeLessThanOrEqual(30_000);
  });

  it('a caller fault (400) is not retried elsewhere', async () => {
    faulty.script({ kind: 'respond', status: 400, chunks: [ERROR_BODY.openai('max_tokens is too large')] });
    healthy.script(WIRE.openai('Yes'));
    const before = healthy.received.length;
    const error = (await run(plan(endpointAt('faulty', faulty.url), endpointAt('healthy', healthy.url))).catch((e: unknown) => e)) as GatewayError;
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/faulty refused the request: HTTP 400: max_tokens is too large/);
    expect(healthy.received.length).toBe(before);
  });

  it('per-attempt timeouts never add up past the total deadline', async () => {
    faulty.always({ kind: 'stall-before-headers' });
    const endpoints = ['f1', 'f2', 'f3', 'f4', 'f5'].map((slug) => endpointAt(slug, faulty.url));
    const started = Date.now();
    const error = (await executePlan(
      plan(...endpoints),
      async (attempt, signal) => {
        const r = await openaiAdapter.chat!(
          { baseUrl: attempt.endpoint.provider.base_url, model: 'm', apiKey: 'k', capabilities: OPEN_CAPABILITIES, host: null },
          { messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], maxTokens: 1 },
          { http, clock: systemClock, signal },
        );
        return { value: r.text, usage: r.usage, timings: r.timings };
      },
      { clock: systemClock, health, metrics },
      { requestId: 'r2', deadlineMs: 500, attemptTimeoutMs: 200 },
    ).catch((e: unknown) => e)) as GatewayError;
    const elapsed = Date.now() - started;
    faulty.always({ kind: 'respond', status: 500, chunks: ['{}'] });
    expect(error.status).toBe(524);
    // Two 200 ms attempts fit in 500 ms and a third is cut short; on a loaded machine the two may
    // take past 500 ms before the third starts. Never more than three, and never all five.
    const tried = Number(/deadline of 500 ms passed after (\d) of 5 endpoints/.exec(error.message)?.[1]);
    expect(tried).toBeGreaterThanOrEqual(2);
    expect(tried).toBeLessThanOrEqual(3);
    expect(elapsed).toBeLessThan(1_500);
  });

  it('a fault in our own code is ours: a 500, no fallback, no metric, the endpoint stays healthy', async () => {
    healthy.always(WIRE.openai('Yes'));
    const a = endpointAt('faulty', faulty.url);
    const b = endpointAt('healthy', healthy.url);
    const before = healthy.received.length;
    for (let i = 0; i < 4; i += 1) {
      const error = (await executePlan(
        plan(a, b),
        async () => {
          // What a stack overflow or a bug in prompt building looks like from here.
          throw new RangeError('Maximum call stack size exceeded');
        },
        { clock: systemClock, health, metrics },
        options,
      ).catch((e: unknown) => e)) as GatewayError;
      expect(error).toBeInstanceOf(GatewayError);
      expect(error.status).toBe(500);
    }
    expect(healthy.received.length).toBe(before);
    expect(health.snapshot(a.id)).toMatchObject({ paused: false, lastFailureAt: null, consecutiveFailures: 0 });
    expect(metrics.figures(a.id, { fresh: true }).attempts5m).toBe(0);
  });

  it('three provider faults in a row pause the endpoint (circuit breaker)', async () => {
    const a = endpointAt('faulty', faulty.url);
    for (let i = 0; i < 3; i += 1) {
      faulty.script({ kind: 'respond', status: 500, chunks: ['{}'] });
      await run(plan(a)).catch(() => undefined);
    }
    expect(health.snapshot(a.id).paused).toBe(true);
  });
});
