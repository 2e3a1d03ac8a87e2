/**
 * Schema migrations, applied in order; `PRAGMA user_version` records how many ran.
 * Never edit a released entry: append a new one.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('standard', 'management')),
    hash BLOB NOT NULL,
    label TEXT NOT NULL,
    created_at TEXT NOT NULL,
    revoked_at TEXT,
    last_used_at TEXT
  );
  CREATE TABLE provider_key_meta (
    provider TEXT PRIMARY KEY,
    updated_at TEXT NOT NULL
  );
  `,
];
