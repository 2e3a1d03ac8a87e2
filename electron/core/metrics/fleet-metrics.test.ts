import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedPostgres, type SharedPostgres } from '../../test-support/shared-postgres';
import { tempDir } from '../../test-support/temp-core';
import { PgDatabase } from '../store/postgres/database';
import { PgMetricsStore } from '../store/postgres/metrics-store';
import { Store } from '../store/sqlite/database';
import { SqliteMetricsStore } from '../store/sqlite/metrics-store';
import type { AttemptOutcome, AttemptRecord } from './attempt';
import { EndpointMetrics } from './endpoint-metrics';

const T0 = Date.parse('2026-11-01T12:00:30Z');
const clock = { now: () => T0 };

/** A deterministic spread of attempts over the last 20 minutes: latencies from 40 ms to 9 s, some faults and refusals. */
function traffic(count: number): AttemptRecord[] {
  let seed = 7;
  const next = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
  const outcomes: AttemptOutcome[] = ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'server_error', 'rate_limited', 'bad_request'];
  return Array.from({ length: count }, (_, i) => {
    const firstTokenMs = Math.round(40 + 9_000 * next() ** 3);
    return {
      requestId: `r${i}`,
      endpointId: i % 4 === 0 ? 'e2' : 'e1',
      startedAt: T0 - Math.floor(next() * 20 * 60_000),
      ttfbMs: 5,
      firstTokenMs,
      totalMs: firstTokenMs + Math.round(200 + 3_000 * next()),
      inputTokens: 100,
      outputTokens: 2 + Math.floor(next() * 400),
      outcome: outcomes[Math.floor(next() * outcomes.length)]!,
      message: null,
    };
  });
}

/** The p-th percentile of raw values, nearest rank (what an HDR histogram reads, within its precision). */
const nearestRank = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

describe("a team's endpoint figures: every instance's attempts, merged", () => {
  let postgres: SharedPostgres;
  beforeAll(() => {
    postgres = sharedPostgres();
  });
  afterAll(() => postgres?.stop());

  it('three instances that each saw a third of the traffic list the same figures as one instance that saw all of it', async () => {
    const url = await postgres.createDatabase('fleet_metrics');
    const databases = await Promise.all([0, 1, 2].map(() => PgDatabase.open(url)));
    const fleet = await Promise.all(databases.map((db, i) => EndpointMetrics.open(new PgMetricsStore(db), clock, `instance-${i}`)));
    const dir = tempDir();
    const store = Store.open(join(dir.path, 'one.sqlite'));
    const single = await EndpointMetrics.open(new SqliteMetricsStore(store), clock);
    try {
      const attempts = traffic(900);
      attempts.forEach((a, i) => {
        fleet[i % 3]!.record(a);
        single.record(a);
      });
      for (const m of fleet) await m.sync();
      for (const m of fleet) await m.sync();
      for (const endpoint of ['e1', 'e2']) {
        const whole = single.figures(endpoint, { fresh: true });
        expect(whole.attempts30m).toBe(attempts.filter((a) => a.endpointId === endpoint).length);
        for (const m of fleet) {
          expect(m.figures(endpoint, { fresh: true })).toEqual(whole);
          expect(m.history(endpoint, 30, 5)).toEqual(single.history(endpoint, 30, 5));
          expect(m.measuredSince(endpoint)).toBe(single.measuredSince(endpoint));
        }
        // And the merged median is the raw median within the histograms' two significant digits.
        const firstTokens = attempts.filter((a) => a.endpointId === endpoint && a.outcome === 'ok').map((a) => a.firstTokenMs! / 1000);
        const p50 = fleet[1]!.figures(endpoint).latency!.p50;
        expect(Math.abs(p50 - nearestRank(firstTokens, 50)) / nearestRank(firstTokens, 50)).toBeLessThan(0.01);
      }
      // An instance started later reads the fleet's day at start.
      const late = await EndpointMetrics.open(new PgMetricsStore(databases[0]!), clock, 'instance-3');
      expect(late.figures('e1', { fresh: true })).toEqual(single.figures('e1', { fresh: true }));
      await late.close();
    } finally {
      for (const m of fleet) await m.close();
      await single.close();
      store.close();
      dir.cleanup();
      for (const db of databases) await db.close();
    }
  }, 60_000);
});
