import type { AuditActor, AuditEntry } from '../../../shared/schemas/audit';
import type { StoredSession } from './ports';

/** An audit entry as both backends keep it: the actor and target in columns, the details as JSON text. */
export interface AuditRow {
  id: string;
  at: string;
  actor_kind: AuditActor['kind'];
  actor_key_id: string | null;
  actor_key_name: string | null;
  action: AuditEntry['action'];
  target_kind: AuditEntry['target']['kind'];
  target_id: string;
  target_name: string;
  details: string;
}

export const AUDIT_COLUMNS = 'id, at, actor_kind, actor_key_id, actor_key_name, action, target_kind, target_id, target_name, details';

export const auditRowOf = (entry: AuditEntry): AuditRow => ({
  id: entry.id,
  at: entry.at,
  actor_kind: entry.actor.kind,
  actor_key_id: entry.actor.kind === 'management_key' ? entry.actor.key_id : null,
  actor_key_name: entry.actor.kind === 'management_key' ? entry.actor.key_name : null,
  action: entry.action,
  target_kind: entry.target.kind,
  target_id: entry.target.id,
  target_name: entry.target.name,
  details: JSON.stringify(entry.details),
});

export const auditEntryOf = (row: AuditRow): AuditEntry => ({
  id: row.id,
  at: row.at,
  actor:
    row.actor_kind === 'management_key'
      ? { kind: 'management_key', key_id: row.actor_key_id ?? '', key_name: row.actor_key_name ?? '' }
      : { kind: row.actor_kind },
  action: row.action,
  target: { kind: row.target_kind, id: row.target_id, name: row.target_name },
  details: JSON.parse(row.details) as Record<string, unknown>,
});

/** An entry's values in the order of AUDIT_COLUMNS. */
export const auditValues = (entry: AuditEntry): (string | null)[] => {
  const row = auditRowOf(entry);
  return [row.id, row.at, row.actor_kind, row.actor_key_id, row.actor_key_name, row.action, row.target_kind, row.target_id, row.target_name, row.details];
};

/** A session's values in the order of `INSERT INTO ui_sessions (token_hash, key_id, created_at, expires_at)`. */
export const sessionValues = (s: StoredSession): [Buffer, string, string, string] => [s.tokenHash, s.keyId, s.created_at, s.expires_at];
