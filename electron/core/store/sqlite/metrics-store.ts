import type { FailedAttempt, MetricsStorage, MinuteFigures } from '../ports';
import type { Store } from './database';

/** The endpoint-metrics domain's tables (`metric_minutes`, `attempts`) in the SQLite file. */
export class SqliteMetricsStore implements MetricsStorage {
  constructor(private readonly store: Store) {}

  logFailure(a: FailedAttempt): void {
    this.store.later(
      `INSERT INTO attempts (request_id, endpoint_id, started_at, ttfb_ms, first_token_ms, total_ms, input_tokens, output_tokens, outcome, provider_fault, message)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        a.requestId,
        a.endpointId,
        a.startedAt,
        a.ttfbMs,
        a.firstTokenMs,
        a.totalMs,
        a.inputTokens,
        a.outputTokens,
        a.outcome,
        a.providerFault ? 1 : 0,
        a.message,
      ],
    );
  }

  saveMinute(m: MinuteFigures): void {
    this.store.later(
      `INSERT INTO metric_minutes (endpoint_id, minute, attempts, faults, latency, throughput) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (endpoint_id, minute) DO UPDATE SET attempts = excluded.attempts, faults = excluded.faults, latency = excluded.latency, throughput = excluded.throughput`,
      [m.endpointId, m.minute, m.attempts, m.faults, m.latency, m.throughput],
    );
  }

  async minutesAfter(minute: number): Promise<MinuteFigures[]> {
    return this.store
      .all<{ endpoint_id: string; minute: number; attempts: number; faults: number; latency: string | null; throughput: string | null }>(
        'SELECT endpoint_id, minute, attempts, faults, latency, throughput FROM metric_minutes WHERE minute > ? ORDER BY minute, endpoint_id',
        [minute],
      )
      .map((r) => ({ endpointId: r.endpoint_id, minute: r.minute, attempts: r.attempts, faults: r.faults, latency: r.latency, throughput: r.throughput }));
  }

  /** One process writes the file: no other instance has figures in it. */
  async minutesOfOthers(_instance: string, cursor: number): Promise<{ rows: MinuteFigures[]; cursor: number }> {
    return { rows: [], cursor };
  }

  async lastFaults(since: number): Promise<{ endpointId: string; at: number }[]> {
    return this.store
      .all<{ endpoint_id: string; at: number }>(
        'SELECT endpoint_id, MAX(started_at + total_ms) AS at FROM attempts WHERE provider_fault = 1 AND started_at > ? GROUP BY endpoint_id ORDER BY endpoint_id',
        [since],
      )
      .map((r) => ({ endpointId: r.endpoint_id, at: r.at }));
  }

  async prune(minute: number, startedAt: number): Promise<void> {
    this.store.run('DELETE FROM metric_minutes WHERE minute < ?', [minute]);
    this.store.run('DELETE FROM attempts WHERE started_at < ?', [startedAt]);
  }

  async flush(): Promise<void> {
    this.store.flushNow();
  }
}
