import type { AuditEntry } from '../../../../shared/schemas/audit';
import { AUDIT_COLUMNS, auditEntryOf, auditValues, sessionValues, type AuditRow } from '../audit-rows';
import type { AuditFilter, AuditStorage, SessionStorage, StoredSession } from '../ports';
import type { PgDatabase } from './database';

/** The filter's conditions as a WHERE clause and its parameters ($1…). */
function where(filter: AuditFilter): { sql: string; params: string[] } {
  const conditions: [string, string | undefined][] = [
    ['actor_kind', filter.actorKind],
    ['actor_key_id', filter.actorKeyId],
    ['target_kind', filter.targetKind],
  ];
  const given = conditions.filter((c): c is [string, string] => c[1] !== undefined);
  return {
    sql: given.length > 0 ? `WHERE ${given.map((c, i) => `${c[0]} = $${i + 1}`).join(' AND ')}` : '',
    params: given.map((c) => c[1]),
  };
}

/** The audit domain's log in Postgres, shared by a team's instances. */
export class PgAuditStore implements AuditStorage {
  constructor(private readonly db: PgDatabase) {}

  async append(entry: AuditEntry): Promise<void> {
    await this.db.query(`INSERT INTO audit_log (${AUDIT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`, auditValues(entry));
  }

  async list(filter: AuditFilter): Promise<{ total: number; entries: AuditEntry[] }> {
    const { sql, params } = where(filter);
    const n = params.length;
    // The details as the text they were written (json, never reordered); the count beside each row saves a round trip.
    const rows = await this.db.query<AuditRow & { total: string }>(
      `SELECT ${AUDIT_COLUMNS.replace('details', 'details::text AS details')}, COUNT(*) OVER () AS total FROM audit_log ${sql}
       ORDER BY at DESC, seq DESC LIMIT $${n + 1} OFFSET $${n + 2}`,
      [...params, filter.limit, filter.offset],
    );
    if (rows.length === 0 && filter.offset > 0) {
      const [count] = await this.db.query<{ n: string }>(`SELECT COUNT(*) AS n FROM audit_log ${sql}`, params);
      return { total: Number(count?.n ?? 0), entries: [] };
    }
    return { total: Number(rows[0]?.total ?? 0), entries: rows.map(auditEntryOf) };
  }
}

/** The web UI's sign-in sessions in Postgres: a session made on one instance is known to all. */
export class PgSessionStore implements SessionStorage {
  constructor(private readonly db: PgDatabase) {}

  async add(session: StoredSession): Promise<void> {
    await this.db.query('INSERT INTO ui_sessions (token_hash, key_id, created_at, expires_at) VALUES ($1, $2, $3, $4)', sessionValues(session));
  }

  async get(tokenHash: Buffer): Promise<StoredSession | undefined> {
    const [row] = await this.db.query<{ token_hash: Buffer; key_id: string; created_at: string; expires_at: string }>(
      'SELECT token_hash, key_id, created_at, expires_at FROM ui_sessions WHERE token_hash = $1',
      [tokenHash],
    );
    return row ? { tokenHash: row.token_hash, keyId: row.key_id, created_at: row.created_at, expires_at: row.expires_at } : undefined;
  }

  async remove(tokenHash: Buffer): Promise<boolean> {
    return (await this.db.query<{ key_id: string }>('DELETE FROM ui_sessions WHERE token_hash = $1 RETURNING key_id', [tokenHash])).length > 0;
  }

  async removeExpired(at: string): Promise<number> {
    return (await this.db.query<{ key_id: string }>('DELETE FROM ui_sessions WHERE expires_at <= $1 RETURNING key_id', [at])).length;
  }
}
