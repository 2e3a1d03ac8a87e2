/**
 * SQLite schema steps of the endpoint metrics: each attempt, and figures per endpoint and minute.
 */
import type { MigrationStep } from '../../migration-order';

export const STEPS: readonly MigrationStep[] = [
  {
    version: 2,
    sql: `
  CREATE TABLE attempts (
    id INTEGER PRIMARY KEY,
    request_id TEXT NOT NULL,
    endpoint_id TEXT NOT NULL,
    started_at INTEGER NOT NULL,
    ttfb_ms REAL,
    first_token_ms REAL,
    total_ms REAL NOT NULL,
    input_tokens INTEGER,
    output_tokens INTEGER,
    outcome TEXT NOT NULL,
    provider_fault INTEGER NOT NULL CHECK (provider_fault IN (0, 1)),
    message TEXT
  );
  CREATE INDEX attempts_by_time ON attempts (started_at);
  CREATE INDEX attempts_by_endpoint_time ON attempts (endpoint_id, started_at);
  `,
  },
  {
    version: 7,
    sql: `
  CREATE TABLE metric_minutes (
    endpoint_id TEXT NOT NULL,
    minute INTEGER NOT NULL,
    attempts INTEGER NOT NULL,
    faults INTEGER NOT NULL,
    latency TEXT,
    throughput TEXT,
    PRIMARY KEY (endpoint_id, minute)
  );
  `,
  },
];
