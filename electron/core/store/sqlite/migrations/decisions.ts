/**
 * SQLite schema steps of the decisions: each request's record (inspector runs and API calls).
 */
import type { MigrationStep } from '../../migration-order';

export const STEPS: readonly MigrationStep[] = [
  {
    version: 3,
    sql: `
  CREATE TABLE decisions (
    id TEXT PRIMARY KEY,
    created_at INTEGER NOT NULL,
    origin TEXT NOT NULL,
    key_id TEXT,
    session_id TEXT,
    user TEXT,
    model TEXT NOT NULL,
    provider TEXT,
    endpoint_id TEXT,
    status INTEGER NOT NULL,
    latency_ms REAL NOT NULL,
    input_tokens INTEGER,
    output_tokens INTEGER,
    cost REAL,
    methods TEXT,
    question_count INTEGER NOT NULL,
    -- Content is kept only for runs from the inspector; API calls keep metadata, not prompts.
    request TEXT,
    response TEXT
  );
  CREATE INDEX decisions_by_time ON decisions (created_at);
  CREATE INDEX decisions_by_session ON decisions (session_id);
  `,
  },
  {
    version: 13,
    sql: `
  -- How each inspector run was routed: attempts in order with their reasons, and endpoints left out.
  ALTER TABLE decisions ADD COLUMN routing TEXT;
  `,
  },
];
