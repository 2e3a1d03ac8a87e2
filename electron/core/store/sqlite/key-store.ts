import { keyValues } from '../key-rows';
import type { ApiKeyRecord, KeyRequest, KeyStorage } from '../ports';
import { SqliteChangeToken } from './change-token';
import type { Store } from './database';

/** A key as SQLite reads it back: the hash as bytes rather than a Buffer. */
interface ApiKeyRow extends Omit<ApiKeyRecord, 'hash'> {
  hash: Uint8Array;
}

const COLUMNS = 'id, name, kind, hash, label, created_at, revoked_at, last_used_at, credit_limit, rate_limit_rpm, spent';

const toRecord = (row: ApiKeyRow): ApiKeyRecord => ({
  id: row.id,
  name: row.name,
  kind: row.kind,
  hash: Buffer.from(row.hash),
  label: row.label,
  created_at: row.created_at,
  revoked_at: row.revoked_at,
  last_used_at: row.last_used_at,
  credit_limit: row.credit_limit,
  rate_limit_rpm: row.rate_limit_rpm,
  spent: row.spent,
});

/** The keys domain's tables (`api_keys`, `key_requests`) in the SQLite file. */
export class SqliteKeyStore implements KeyStorage {
  private readonly token: SqliteChangeToken;

  constructor(private readonly store: Store) {
    this.token = new SqliteChangeToken(store);
  }

  async all(): Promise<ApiKeyRecord[]> {
    return this.store.all<ApiKeyRow>(`SELECT ${COLUMNS} FROM api_keys ORDER BY created_at, id`).map(toRecord);
  }

  async add(key: ApiKeyRecord): Promise<void> {
    this.store.run(
      'INSERT INTO api_keys (id, name, kind, hash, label, created_at, revoked_at, last_used_at, credit_limit, rate_limit_rpm, spent) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      keyValues(key),
    );
    this.token.moved();
  }

  async addFirst(key: ApiKeyRecord): Promise<boolean> {
    // One statement: SQLite lets one writer at a time in, so two processes cannot both find the table empty.
    const added =
      this.store.run(
        `INSERT INTO api_keys (id, name, kind, hash, label, created_at, revoked_at, last_used_at, credit_limit, rate_limit_rpm, spent)
         SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM api_keys)`,
        keyValues(key),
      ).changes > 0;
    if (added) this.token.moved();
    return added;
  }

  async get(id: string): Promise<ApiKeyRecord | undefined> {
    const row = this.store.get<ApiKeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE id = ?`, [id]);
    return row ? toRecord(row) : undefined;
  }

  async setLimits(id: string, limits: { credit_limit: number | null; rate_limit_rpm: number | null }): Promise<ApiKeyRecord | undefined> {
    const changes = this.store.run('UPDATE api_keys SET credit_limit = ?, rate_limit_rpm = ? WHERE id = ?', [
      limits.credit_limit,
      limits.rate_limit_rpm,
      id,
    ]).changes;
    if (changes > 0) this.token.moved();
    return this.get(id);
  }

  async revoke(id: string, at: string): Promise<ApiKeyRecord | undefined> {
    const changes = this.store.run('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [at, id]).changes;
    if (changes > 0) this.token.moved();
    const row = this.store.get<ApiKeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE id = ?`, [id]);
    return row ? toRecord(row) : undefined;
  }

  charge(id: string, usd: number): Promise<void> {
    // The day's row in the same group commit as the spend: both or neither. The charges of one key in
    // one group are summed into one row each (a busy key's group held a statement pair per request).
    const day = new Date().toISOString().slice(0, 10);
    this.store.commitSoon(
      'INSERT INTO key_spend_days (key_id, day, usd) VALUES (?, ?, ?) ON CONFLICT (key_id, day) DO UPDATE SET usd = usd + excluded.usd',
      [id, day, usd],
      { key: `${id} ${day}`, at: 2 },
    );
    return this.store.commit('UPDATE api_keys SET spent = spent + ? WHERE id = ?', [usd, id], { key: id, at: 0 });
  }

  async addSpendDays(id: string, days: ReadonlyMap<string, number>): Promise<void> {
    this.store.transaction(() => {
      for (const [day, usd] of days)
        this.store.run('INSERT INTO key_spend_days (key_id, day, usd) VALUES (?, ?, ?) ON CONFLICT (key_id, day) DO UPDATE SET usd = usd + excluded.usd', [
          id,
          day,
          usd,
        ]);
    });
  }

  async spendByDay(id: string, fromDay: string): Promise<Map<string, number>> {
    const rows = this.store.all<{ day: string; usd: number }>('SELECT day, usd FROM key_spend_days WHERE key_id = ? AND day >= ?', [id, fromDay]);
    return new Map(rows.map((r) => [r.day, r.usd]));
  }

  noteRequest({ keyId, at }: KeyRequest): void {
    this.store.commitSoon('INSERT INTO key_requests (key_id, at) VALUES (?, ?)', [keyId, at]);
  }

  forgetRequests(upTo: number): void {
    this.store.commitSoon('DELETE FROM key_requests WHERE at <= ?', [upTo]);
  }

  async requestsSince(since: number): Promise<KeyRequest[]> {
    return this.store
      .all<{ key_id: string; at: number }>('SELECT key_id, at FROM key_requests WHERE at > ? ORDER BY at', [since])
      .map((r) => ({ keyId: r.key_id, at: r.at }));
  }

  stampUsed(id: string, at: string): void {
    this.store.later('UPDATE api_keys SET last_used_at = ? WHERE id = ?', [at, id]);
  }

  async flush(): Promise<void> {
    this.store.flushNow();
  }

  changeToken(): number {
    return this.token.read();
  }
}
