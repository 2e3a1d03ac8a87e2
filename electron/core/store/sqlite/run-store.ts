import type { RunFilter, RunStorage, StoredRun } from '../ports';
import type { Store } from './database';
import { decisionValues } from '../run-rows';

interface Row extends Omit<StoredRun, 'methods' | 'request' | 'response' | 'routing' | 'origin'> {
  origin: string;
  methods: string | null;
  request: string | null;
  response: string | null;
  routing: string | null;
}

const parsed = (text: string | null): unknown => (text === null ? null : (JSON.parse(text) as unknown));

const COLUMNS =
  'id, created_at, origin, key_id, session_id, user, model, provider, endpoint_id, status, latency_ms, input_tokens, output_tokens, cost, methods, question_count, request, response, set_id, label, routing';

const toRun = (r: Row): StoredRun => ({
  ...r,
  origin: r.origin === 'api' ? 'api' : 'inspector',
  methods: parsed(r.methods) as Record<string, string> | null,
  request: parsed(r.request),
  response: parsed(r.response),
  routing: parsed(r.routing),
});

/** 499: stopped by the person running it. */
const CANCELLED = 499;

/** The runs domain's table (`decisions`) in the SQLite file. */
export class SqliteRunStore implements RunStorage {
  constructor(private readonly store: Store) {}

  async add(r: StoredRun): Promise<void> {
    this.store.run(`INSERT INTO decisions (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, decisionValues(r));
  }

  async get(id: string): Promise<StoredRun | undefined> {
    const row = this.store.get<Row>(`SELECT ${COLUMNS} FROM decisions WHERE id = ? AND origin = 'inspector'`, [id]);
    return row ? toRun(row) : undefined;
  }

  async list(filter: RunFilter): Promise<StoredRun[]> {
    if (filter.status === 'running') return [];
    const where = ["origin = 'inspector'"];
    const params: (string | number)[] = [];
    if (filter.set_id) {
      where.push('set_id = ?');
      params.push(filter.set_id);
    }
    if (filter.model) {
      where.push('model = ?');
      params.push(filter.model);
    }
    if (filter.status)
      where.push(filter.status === 'done' ? 'status = 200' : filter.status === 'cancelled' ? `status = ${CANCELLED}` : `status NOT IN (200, ${CANCELLED})`);
    return this.store
      .all<Row>(`SELECT ${COLUMNS} FROM decisions WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id LIMIT ?`, [...params, filter.limit])
      .map(toRun);
  }

  async remove(id: string): Promise<boolean> {
    return this.store.run("DELETE FROM decisions WHERE id = ? AND origin = 'inspector'", [id]).changes > 0;
  }

  async forgetApiRecordsBefore(cutoff: number): Promise<number> {
    return this.store.run("DELETE FROM decisions WHERE origin = 'api' AND created_at < ?", [cutoff]).changes;
  }

  async answeredTokens(): Promise<{ model: string; requests: number; input: number; output: number; cost: number; priced: number }[]> {
    return this.store.all<{ model: string; requests: number; input: number; output: number; cost: number; priced: number }>(
      'SELECT model, COUNT(*) AS requests, SUM(input_tokens) AS input, SUM(output_tokens) AS output, COALESCE(SUM(cost), 0) AS cost, COUNT(cost) AS priced FROM decisions WHERE status = 200 AND input_tokens IS NOT NULL AND output_tokens IS NOT NULL GROUP BY model ORDER BY model',
    );
  }
}
