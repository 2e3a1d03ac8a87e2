import { describe, expect, it } from 'vitest';
import { storeBackends } from '../../test-support/store-backends';
import type { FailedAttempt, MetricsStorage, MinuteFigures } from './ports';
import { PgMetricsStore } from './postgres/metrics-store';
import { SqliteMetricsStore } from './sqlite/metrics-store';

/** The endpoint-metrics domain's storage contract, on both backends. */
const backends = storeBackends<MetricsStorage>({ sqlite: (store) => new SqliteMetricsStore(store), postgres: (db) => new PgMetricsStore(db) });

const T0 = Date.parse('2026-11-01T12:00:00Z');
const M0 = Math.floor(T0 / 60_000);

const minute = (endpointId: string, m: number, over: Partial<MinuteFigures> = {}): MinuteFigures => ({
  endpointId,
  minute: m,
  attempts: 3,
  faults: 1,
  latency: 'HISTFAAAAB54nJNpmSzMwMDAxgABzFCaEUQAAAlsAGs=',
  throughput: null,
  ...over,
});

const failure = (endpointId: string, startedAt: number, over: Partial<FailedAttempt> = {}): FailedAttempt => ({
  requestId: 'r1',
  endpointId,
  startedAt,
  ttfbMs: null,
  firstTokenMs: null,
  totalMs: 1500,
  inputTokens: null,
  outputTokens: null,
  outcome: 'server_error',
  providerFault: true,
  message: 'upstream said 503',
  ...over,
});

describe.each(backends)('MetricsStorage on %s', (_name, backend) => {
  it('a minute saved again replaces the one before; minutes come back oldest first, after the minute asked', async () => {
    const { a, b, close } = await backend.open();
    try {
      a.saveMinute(minute('e1', M0 - 2));
      a.saveMinute(minute('e2', M0 - 1, { throughput: 'x', latency: null }));
      a.saveMinute(minute('e1', M0 - 1, { attempts: 1 }));
      a.saveMinute(minute('e1', M0 - 1, { attempts: 7, faults: 0 }));
      await a.flush();
      expect(await b.minutesAfter(M0 - 3)).toEqual([
        minute('e1', M0 - 2),
        minute('e1', M0 - 1, { attempts: 7, faults: 0 }),
        minute('e2', M0 - 1, { throughput: 'x', latency: null }),
      ]);
      expect((await b.minutesAfter(M0 - 2)).map((m) => m.minute)).toEqual([M0 - 1, M0 - 1]);
    } finally {
      await close();
    }
  });

  it("the last provider fault's end per endpoint, of failures started after a time; failures that are not the provider's are left out", async () => {
    const { a, b, close } = await backend.open();
    try {
      a.logFailure(failure('e1', T0 - 50_000.375));
      a.logFailure(failure('e1', T0 - 10_000, { totalMs: 250 }));
      a.logFailure(failure('e1', T0 - 5_000, { outcome: 'bad_request', providerFault: false, totalMs: 99_000 }));
      a.logFailure(failure('e2', T0 - 90_000));
      await a.flush();
      expect(await b.lastFaults(T0 - 60_000)).toEqual([{ endpointId: 'e1', at: T0 - 10_000 + 250 }]);
      expect(await b.lastFaults(T0 - 100_000)).toEqual([
        { endpointId: 'e1', at: T0 - 10_000 + 250 },
        { endpointId: 'e2', at: T0 - 90_000 + 1500 },
      ]);
    } finally {
      await close();
    }
  });

  it('prunes minutes before a minute and failures started before a time', async () => {
    const { a, b, close } = await backend.open();
    try {
      for (const m of [M0 - 3, M0 - 2, M0 - 1]) a.saveMinute(minute('e1', m));
      a.logFailure(failure('e1', T0 - 3_000));
      a.logFailure(failure('e1', T0 - 1_000, { totalMs: 10 }));
      await a.flush();
      await b.prune(M0 - 2, T0 - 2_000);
      expect((await a.minutesAfter(0)).map((m) => m.minute)).toEqual([M0 - 2, M0 - 1]);
      expect(await a.lastFaults(0)).toEqual([{ endpointId: 'e1', at: T0 - 1_000 + 10 }]);
    } finally {
      await close();
    }
  });
});

describe.each(backends)("other instances' minutes on %s", (name, backend) => {
  it(
    name === 'Postgres'
      ? "each instance's minute is kept apart; an instance reads the others' (not its own) that changed since its cursor"
      : 'one process writes the file: there are no other instances to read',
    async () => {
      const { a, b, close } = await backend.open();
      try {
        a.saveMinute(minute('e1', M0, { instance: 'one', attempts: 2 }));
        b.saveMinute(minute('e1', M0, { instance: 'two', attempts: 5 }));
        await Promise.all([a.flush(), b.flush()]);
        const first = await a.minutesOfOthers('one', 0, M0 - 10);
        if (name === 'SQLite') {
          expect(first).toEqual({ rows: [], cursor: 0 });
          return;
        }
        expect(first.rows).toEqual([minute('e1', M0, { instance: 'two', attempts: 5 })]);
        expect((await b.minutesOfOthers('two', 0, M0 - 10)).rows).toEqual([minute('e1', M0, { instance: 'one', attempts: 2 })]);
        // Both rows of the minute stay: neither instance's write replaced the other's.
        expect((await b.minutesAfter(M0 - 1)).map((m) => [m.instance, m.attempts])).toEqual([
          ['one', 2],
          ['two', 5],
        ]);
        // Minutes before the one asked are not read; a minute saved again is read again after the cursor.
        b.saveMinute(minute('e1', M0 - 20, { instance: 'two' }));
        b.saveMinute(minute('e1', M0, { instance: 'two', attempts: 9 }));
        await b.flush();
        const next = await a.minutesOfOthers('one', first.cursor, M0 - 10);
        expect(next.rows).toEqual([minute('e1', M0, { instance: 'two', attempts: 9 })]);
        expect(next.cursor).toBeGreaterThan(first.cursor);
      } finally {
        await close();
      }
    },
  );
});
