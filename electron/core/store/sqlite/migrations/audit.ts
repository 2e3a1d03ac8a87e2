/**
 * SQLite schema steps of the audit log, and of the web UI's sign-ins it records.
 */
import type { MigrationStep } from '../../migration-order';

export const STEPS: readonly MigrationStep[] = [
  {
    version: 26,
    sql: `
  -- The audit log: who created, changed or revoked keys, limits, sets and datasets. Appended only;
  -- seq keeps the order entries were added in (entries of one millisecond stay in order).
  CREATE TABLE audit_log (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    at TEXT NOT NULL,
    actor_kind TEXT NOT NULL,
    actor_key_id TEXT,
    actor_key_name TEXT,
    action TEXT NOT NULL,
    target_kind TEXT NOT NULL,
    target_id TEXT NOT NULL,
    target_name TEXT NOT NULL,
    details TEXT NOT NULL
  );
  CREATE INDEX audit_log_by_time ON audit_log (at, seq);
  -- The web UI's sign-ins with a management key: a SHA-256 of the session's token, never the token.
  CREATE TABLE ui_sessions (
    token_hash BLOB PRIMARY KEY,
    key_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
  );
  CREATE INDEX ui_sessions_by_expiry ON ui_sessions (expires_at);
  `,
  },
];
