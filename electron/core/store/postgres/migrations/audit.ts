/**
 * Postgres schema steps of the audit log, and of the web UI's sign-ins it records.
 */
import type { MigrationStep } from '../../migration-order';

export const STEPS: readonly MigrationStep[] = [
  {
    version: 11,
    sql: `
  -- The audit log: who created, changed or revoked keys, limits, sets and datasets. Appended only;
  -- seq keeps the order entries were added in (entries of one millisecond stay in order).
  CREATE TABLE audit_log (
    seq bigserial PRIMARY KEY,
    id text NOT NULL UNIQUE,
    at text NOT NULL,
    actor_kind text NOT NULL,
    actor_key_id text,
    actor_key_name text,
    action text NOT NULL,
    target_kind text NOT NULL,
    target_id text NOT NULL,
    target_name text NOT NULL,
    details json NOT NULL
  );
  CREATE INDEX audit_log_by_time ON audit_log (at, seq);
  -- The web UI's sign-ins with a management key, shared by every instance: a SHA-256 of the
  -- session's token, never the token.
  CREATE TABLE ui_sessions (
    token_hash bytea PRIMARY KEY,
    key_id text NOT NULL,
    created_at text NOT NULL,
    expires_at text NOT NULL
  );
  CREATE INDEX ui_sessions_by_expiry ON ui_sessions (expires_at);
  `,
  },
];
