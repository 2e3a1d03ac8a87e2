import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp-core';
import { Store } from '../store/sqlite/database';
import type { AttemptOutcome, AttemptRecord } from './attempt';
import { SqliteMetricsStore } from '../store/sqlite/metrics-store';
import { EndpointMetrics } from './endpoint-metrics';

const T0 = Date.parse('2026-11-01T12:00:00Z');

describe('endpoint metrics', () => {
  let dir: ReturnType<typeof tempDir>;
  let store: Store;
  let now = T0;
  const clock = { now: () => now };
  afterEach(() => {
    store.close();
    dir.cleanup();
  });
  const open = () => {
    store = Store.open(join(dir.path, 'db.sqlite'));
    return EndpointMetrics.open(new SqliteMetricsStore(store), clock);
  };
  const attempt = (over: Partial<AttemptRecord> & { outcome?: AttemptOutcome } = {}): AttemptRecord => ({
    requestId: 'r',
    endpointId: 'e1',
    startedAt: now,
    ttfbMs: 10,
    firstTokenMs: 200,
    totalMs: 1200,
    inputTokens: 10,
    outputTokens: 101,
    outcome: 'ok',
    message: null,
    ...over,
  });

  it('has no figures for an endpoint without traffic: null, not 0 or 100', async () => {
    dir = tempDir();
    now = T0;
    const metrics = await open();
    expect(metrics.figures('e1')).toMatchObject({ latency: null, throughput: null, uptime5m: null, uptime30m: null, uptime1d: null });
  });

  it('latency percentiles in seconds from time to first token, throughput after the first token', async () => {
    dir = tempDir();
    now = T0;
    const metrics = await open();
    // First-token times 100..1000 ms; 100 output tokens after the first over 1000 ms: 100 tok/s.
    for (let i = 1; i <= 10; i += 1) metrics.record(attempt({ firstTokenMs: i * 100, totalMs: i * 100 + 1000 }));
    const f = metrics.figures('e1');
    expect(f.latency!.p50).toBeCloseTo(0.5, 1);
    expect(f.latency!.p90).toBeCloseTo(0.9, 1);
    expect(f.latency!.p99).toBeCloseTo(1.0, 1);
    expect(f.throughput!.p50).toBeCloseTo(100, 0);
  });

  it('uptime counts only provider faults, per window', async () => {
    dir = tempDir();
    now = T0;
    const metrics = await open();
    metrics.record(attempt({ outcome: 'server_error', startedAt: T0 - 20 * 60_000 }));
    metrics.record(attempt({ outcome: 'ok' }));
    metrics.record(attempt({ outcome: 'bad_request' }));
    metrics.record(attempt({ outcome: 'timeout' }));
    const f = metrics.figures('e1');
    expect(f.uptime5m).toBeCloseTo((100 * 2) / 3, 2);
    expect(f.uptime30m).toBe(50);
    expect(f.uptime1d).toBe(50);
  });

  it('windows slide: a fault ages out of 5m and 30m but stays in 1d', async () => {
    dir = tempDir();
    now = T0;
    const metrics = await open();
    metrics.record(attempt({ outcome: 'overloaded' }));
    now = T0 + 31 * 60_000;
    metrics.record(attempt({ outcome: 'ok' }));
    const f = metrics.figures('e1');
    expect(f.uptime5m).toBe(100);
    expect(f.uptime30m).toBe(100);
    expect(f.uptime1d).toBe(50);
    expect(f.latency).not.toBeNull();
    now = T0 + 25 * 60 * 60_000;
    expect(metrics.figures('e1').uptime1d).toBeNull();
  });

  it('a restart keeps the day', async () => {
    dir = tempDir();
    now = T0;
    const first = await open();
    first.record(attempt({ outcome: 'ok', firstTokenMs: 300 }));
    first.record(attempt({ outcome: 'connection' }));
    const before = first.figures('e1');
    await first.close();
    store.close();
    const second = await open();
    expect(second.figures('e1')).toEqual(before);
  });

  it('history counts attempts and faults per slot, oldest first, empty slots empty', async () => {
    dir = tempDir();
    now = T0;
    const metrics = await open();
    metrics.record(attempt({ startedAt: T0 - 2 * 60_000, outcome: 'ok' }));
    metrics.record(attempt({ startedAt: T0 - 2 * 60_000, outcome: 'server_error' }));
    metrics.record(attempt({ startedAt: T0, outcome: 'ok' }));
    const slots = metrics.history('e1', 5, 1);
    expect(slots.map((s) => [s.attempts, s.faults])).toEqual([
      [0, 0],
      [0, 0],
      [2, 1],
      [0, 0],
      [1, 0],
    ]);
    expect(slots[4]!.at).toBe(Math.floor(T0 / 60_000) * 60_000);
  });
});
