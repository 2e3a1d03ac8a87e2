import type { FailedAttempt, MetricsStorage, MinuteFigures } from '../ports';
import { FlushTimer } from '../../flush-timer';
import type { PgDatabase } from './database';

/** Figures written behind reach the database this often at the latest. */
const WRITE_BEHIND_MS = 250;

/** How far behind its cursor an instance reads the others' figures again (see minutesOfOthers). */
const CHANGE_OVERLAP_MS = 5_000;

interface MinuteRow {
  endpoint_id: string;
  minute: string;
  attempts: number;
  faults: number;
  latency: string | null;
  throughput: string | null;
  instance: string;
}

const figuresOf = (r: MinuteRow): MinuteFigures => ({
  endpointId: r.endpoint_id,
  minute: Number(r.minute),
  attempts: r.attempts,
  faults: r.faults,
  latency: r.latency,
  throughput: r.throughput,
  // Rows stored before instances were told apart have none.
  ...(r.instance === '' ? {} : { instance: r.instance }),
});

/** The endpoint-metrics domain's tables in Postgres; what is written behind goes in one transaction of two statements. */
export class PgMetricsStore implements MetricsStorage {
  private failures: FailedAttempt[] = [];
  private minutes = new Map<string, MinuteFigures>();
  private readonly timer = new FlushTimer(WRITE_BEHIND_MS, () => void this.flush().catch(() => {}));
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly db: PgDatabase) {}

  logFailure(attempt: FailedAttempt): void {
    this.failures.push(attempt);
    this.timer.arm();
  }

  saveMinute(figures: MinuteFigures): void {
    this.minutes.set(`${figures.endpointId}\u0000${figures.minute}\u0000${figures.instance ?? ''}`, figures);
    this.timer.arm();
  }

  async flush(): Promise<void> {
    this.timer.disarm();
    const failures = this.failures;
    const minutes = [...this.minutes.values()];
    this.failures = [];
    this.minutes = new Map();
    this.writing = this.writing.then(() => (failures.length + minutes.length > 0 ? this.write(failures, minutes) : undefined));
    await this.writing;
  }

  private async write(failures: FailedAttempt[], minutes: MinuteFigures[]): Promise<void> {
    await this.db.transaction(async (client) => {
      if (failures.length > 0) {
        const column = <K extends keyof FailedAttempt>(key: K) => failures.map((f) => f[key]);
        await client.query(
          `INSERT INTO attempts (request_id, endpoint_id, started_at, ttfb_ms, first_token_ms, total_ms, input_tokens, output_tokens, outcome, provider_fault, message)
           SELECT * FROM unnest($1::text[], $2::text[], $3::float8[], $4::float8[], $5::float8[], $6::float8[], $7::integer[], $8::integer[], $9::text[], $10::boolean[], $11::text[])`,
          [
            column('requestId'),
            column('endpointId'),
            column('startedAt'),
            column('ttfbMs'),
            column('firstTokenMs'),
            column('totalMs'),
            column('inputTokens'),
            column('outputTokens'),
            column('outcome'),
            column('providerFault'),
            column('message'),
          ],
        );
      }
      if (minutes.length > 0) {
        const column = <K extends keyof MinuteFigures>(key: K) => minutes.map((m) => m[key]);
        await client.query(
          `INSERT INTO metric_minutes (endpoint_id, minute, attempts, faults, latency, throughput, instance, changed_at)
           SELECT *, extract(epoch FROM clock_timestamp()) * 1000 FROM unnest($1::text[], $2::bigint[], $3::integer[], $4::integer[], $5::text[], $6::text[], $7::text[])
           ON CONFLICT (endpoint_id, minute, instance) DO UPDATE SET attempts = excluded.attempts, faults = excluded.faults, latency = excluded.latency,
             throughput = excluded.throughput, changed_at = excluded.changed_at`,
          [
            column('endpointId'),
            column('minute'),
            column('attempts'),
            column('faults'),
            column('latency'),
            column('throughput'),
            minutes.map((m) => m.instance ?? ''),
          ],
        );
      }
    });
  }

  async minutesAfter(minute: number): Promise<MinuteFigures[]> {
    const rows = await this.db.query<MinuteRow>(
      'SELECT endpoint_id, minute, attempts, faults, latency, throughput, instance FROM metric_minutes WHERE minute > $1 ORDER BY minute, endpoint_id, instance',
      [minute],
    );
    return rows.map(figuresOf);
  }

  /**
   * Read again from a little before the cursor: a transaction that took its time stamps rows with a
   * time before it commits, so rows may appear behind the cursor; reading one twice is harmless.
   */
  async minutesOfOthers(instance: string, cursor: number, minute: number): Promise<{ rows: MinuteFigures[]; cursor: number }> {
    const rows = await this.db.query<MinuteRow & { changed_at: number }>(
      `SELECT endpoint_id, minute, attempts, faults, latency, throughput, instance, changed_at FROM metric_minutes
       WHERE changed_at > $1 AND instance <> $2 AND minute > $3 ORDER BY changed_at`,
      [cursor - CHANGE_OVERLAP_MS, instance, minute],
    );
    return { rows: rows.map(figuresOf), cursor: rows.reduce((c, r) => Math.max(c, Number(r.changed_at)), cursor) };
  }

  async lastFaults(since: number): Promise<{ endpointId: string; at: number }[]> {
    const rows = await this.db.query<{ endpoint_id: string; at: number }>(
      'SELECT endpoint_id, MAX(started_at + total_ms) AS at FROM attempts WHERE provider_fault AND started_at > $1 GROUP BY endpoint_id ORDER BY endpoint_id',
      [since],
    );
    return rows.map((r) => ({ endpointId: r.endpoint_id, at: Number(r.at) }));
  }

  async prune(minute: number, startedAt: number): Promise<void> {
    await this.db.query('DELETE FROM metric_minutes WHERE minute < $1', [minute]);
    await this.db.query('DELETE FROM attempts WHERE started_at < $1', [startedAt]);
  }
}
