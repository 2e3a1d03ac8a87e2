import type { AuditEntry } from '../../../../shared/schemas/audit';
import { AUDIT_COLUMNS, auditEntryOf, auditValues, sessionValues, type AuditRow } from '../audit-rows';
import type { AuditFilter, AuditStorage, SessionStorage, StoredSession } from '../ports';
import type { Store } from './database';

/** The filter's conditions as a WHERE clause and its parameters. */
function where(filter: AuditFilter): { sql: string; params: (string | number)[] } {
  const conditions: [string, string | undefined][] = [
    ['actor_kind = ?', filter.actorKind],
    ['actor_key_id = ?', filter.actorKeyId],
    ['target_kind = ?', filter.targetKind],
  ];
  const given = conditions.filter((c): c is [string, string] => c[1] !== undefined);
  return { sql: given.length > 0 ? `WHERE ${given.map((c) => c[0]).join(' AND ')}` : '', params: given.map((c) => c[1]) };
}

/** The audit domain's log (`audit_log`) in the SQLite file. */
export class SqliteAuditStore implements AuditStorage {
  constructor(private readonly store: Store) {}

  async append(entry: AuditEntry): Promise<void> {
    this.store.run(`INSERT INTO audit_log (${AUDIT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, auditValues(entry));
  }

  async list(filter: AuditFilter): Promise<{ total: number; entries: AuditEntry[] }> {
    const { sql, params } = where(filter);
    const total = this.store.get<{ n: number }>(`SELECT COUNT(*) AS n FROM audit_log ${sql}`, params)!.n;
    const rows = this.store.all<AuditRow>(`SELECT ${AUDIT_COLUMNS} FROM audit_log ${sql} ORDER BY at DESC, seq DESC LIMIT ? OFFSET ?`, [
      ...params,
      filter.limit,
      filter.offset,
    ]);
    return { total, entries: rows.map(auditEntryOf) };
  }
}

interface SessionRow {
  token_hash: Uint8Array;
  key_id: string;
  created_at: string;
  expires_at: string;
}

/** The web UI's sign-in sessions (`ui_sessions`) in the SQLite file. */
export class SqliteSessionStore implements SessionStorage {
  constructor(private readonly store: Store) {}

  async add(session: StoredSession): Promise<void> {
    this.store.run('INSERT INTO ui_sessions (token_hash, key_id, created_at, expires_at) VALUES (?, ?, ?, ?)', sessionValues(session));
  }

  async get(tokenHash: Buffer): Promise<StoredSession | undefined> {
    const row = this.store.get<SessionRow>('SELECT token_hash, key_id, created_at, expires_at FROM ui_sessions WHERE token_hash = ?', [tokenHash]);
    return row ? { tokenHash: Buffer.from(row.token_hash), keyId: row.key_id, created_at: row.created_at, expires_at: row.expires_at } : undefined;
  }

  async remove(tokenHash: Buffer): Promise<boolean> {
    return this.store.run('DELETE FROM ui_sessions WHERE token_hash = ?', [tokenHash]).changes > 0;
  }

  async removeExpired(at: string): Promise<number> {
    return this.store.run('DELETE FROM ui_sessions WHERE expires_at <= ?', [at]).changes;
  }
}
