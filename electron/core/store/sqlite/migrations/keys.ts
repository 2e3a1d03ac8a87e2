/**
 * SQLite schema steps of the API keys: their limits, what they spent (per key and per day) and
 * their recent requests for rate limits, and the request log's spend carried over from before.
 */
import type { MigrationStep } from '../../migration-order';

export const STEPS: readonly MigrationStep[] = [
  // Also indexes decisions by key: a key's spend was read from its decisions then.
  {
    version: 4,
    sql: `
  ALTER TABLE api_keys ADD COLUMN credit_limit REAL;
  ALTER TABLE api_keys ADD COLUMN rate_limit_rpm INTEGER;
  CREATE INDEX decisions_by_key ON decisions (key_id);
  `,
  },
  {
    version: 8,
    sql: `
  ALTER TABLE api_keys ADD COLUMN spent_archived REAL NOT NULL DEFAULT 0;
  `,
  },
  {
    version: 9,
    sql: `
  ALTER TABLE api_keys ADD COLUMN spent_logged REAL NOT NULL DEFAULT 0;
  CREATE TABLE request_log_checkpoint (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    file TEXT NOT NULL,
    byte_offset INTEGER NOT NULL
  );
  `,
  },
  {
    version: 10,
    sql: `
  -- One figure per key, written before each answer leaves (group commit): what every request cost.
  ALTER TABLE api_keys ADD COLUMN spent REAL NOT NULL DEFAULT 0;
  UPDATE api_keys SET spent = spent_archived + spent_logged
    + COALESCE((SELECT SUM(d.cost) FROM decisions d WHERE d.key_id = api_keys.id AND d.origin = 'api'), 0);
  -- Lines of the request log after its checkpoint are still to be added to spent, once (0 until then).
  CREATE TABLE request_log_legacy (id INTEGER PRIMARY KEY CHECK (id = 1), folded INTEGER NOT NULL);
  INSERT INTO request_log_legacy (id, folded) VALUES (1, 0);
  -- Start times of rate-limited keys' requests in the last minute, so a restart keeps the window.
  CREATE TABLE key_requests (key_id TEXT NOT NULL, at INTEGER NOT NULL);
  CREATE INDEX key_requests_by_time ON key_requests (at);
  `,
  },
  {
    version: 29,
    sql: `
  -- What each key spent per UTC day, charged with its spend (GET /api/v1/key reads the day, week and
  -- month from it). Days before this table are filled from the API records an older version kept.
  CREATE TABLE key_spend_days (
    key_id TEXT NOT NULL,
    day TEXT NOT NULL,
    usd REAL NOT NULL,
    PRIMARY KEY (key_id, day)
  );
  INSERT INTO key_spend_days (key_id, day, usd)
    SELECT key_id, strftime('%Y-%m-%d', created_at / 1000, 'unixepoch'), SUM(cost) FROM decisions
    WHERE origin = 'api' AND key_id IS NOT NULL AND cost IS NOT NULL GROUP BY 1, 2;
  `,
  },
];
