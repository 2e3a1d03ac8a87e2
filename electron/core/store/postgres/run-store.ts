import type { RunFilter, RunStorage, StoredRun } from '../ports';
import type { PgDatabase } from './database';
import { decisionValues } from '../run-rows';

interface Row extends Omit<StoredRun, 'created_at' | 'origin'> {
  created_at: string;
  origin: string;
}

// "user" is a reserved word in Postgres.
const COLUMNS =
  'id, created_at, origin, key_id, session_id, "user", model, provider, endpoint_id, status, latency_ms, input_tokens, output_tokens, cost, methods, question_count, request, response, set_id, label, routing';
const toRun = (r: Row): StoredRun => ({ ...r, created_at: Number(r.created_at), origin: r.origin === 'api' ? 'api' : 'inspector' });

const CANCELLED = 499;

/** The runs domain's table in Postgres (content and routing as json, kept as written). */
export class PgRunStore implements RunStorage {
  constructor(private readonly db: PgDatabase) {}

  async add(r: StoredRun): Promise<void> {
    await this.db.query(
      `INSERT INTO decisions (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)`,
      decisionValues(r),
    );
  }

  async get(id: string): Promise<StoredRun | undefined> {
    const [row] = await this.db.query<Row>(`SELECT ${COLUMNS} FROM decisions WHERE id = $1 AND origin = 'inspector'`, [id]);
    return row ? toRun(row) : undefined;
  }

  async list(filter: RunFilter): Promise<StoredRun[]> {
    if (filter.status === 'running') return [];
    const where = ["origin = 'inspector'"];
    const params: (string | number)[] = [];
    if (filter.set_id) where.push(`set_id = $${params.push(filter.set_id)}`);
    if (filter.model) where.push(`model = $${params.push(filter.model)}`);
    if (filter.status)
      where.push(filter.status === 'done' ? 'status = 200' : filter.status === 'cancelled' ? `status = ${CANCELLED}` : `status NOT IN (200, ${CANCELLED})`);
    const limit = `$${params.push(filter.limit)}`;
    return (await this.db.query<Row>(`SELECT ${COLUMNS} FROM decisions WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id LIMIT ${limit}`, params)).map(
      toRun,
    );
  }

  async remove(id: string): Promise<boolean> {
    return ((await this.db.pool.query("DELETE FROM decisions WHERE id = $1 AND origin = 'inspector'", [id])).rowCount ?? 0) > 0;
  }

  async forgetApiRecordsBefore(cutoff: number): Promise<number> {
    return (await this.db.pool.query("DELETE FROM decisions WHERE origin = 'api' AND created_at < $1", [cutoff])).rowCount ?? 0;
  }

  async answeredTokens(): Promise<{ model: string; requests: number; input: number; output: number; cost: number; priced: number }[]> {
    const rows = await this.db.query<{ model: string; requests: string; input: string; output: string; cost: string; priced: string }>(
      'SELECT model, COUNT(*) AS requests, SUM(input_tokens) AS input, SUM(output_tokens) AS output, COALESCE(SUM(cost), 0) AS cost, COUNT(cost) AS priced FROM decisions WHERE status = 200 AND input_tokens IS NOT NULL AND output_tokens IS NOT NULL GROUP BY model ORDER BY model',
    );
    return rows.map((r) => ({
      model: r.model,
      requests: Number(r.requests),
      input: Number(r.input),
      output: Number(r.output),
      cost: Number(r.cost),
      priced: Number(r.priced),
    }));
  }
}
