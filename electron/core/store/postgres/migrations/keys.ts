/**
 * Postgres schema steps of the API keys: the keys and their change notice, recent requests for
 * rate limits, the spend ledger and spend per day.
 */
import type { MigrationStep } from '../../migration-order';

export const STEPS: readonly MigrationStep[] = [
  {
    version: 1,
    sql: `
  CREATE TABLE api_keys (
    id text PRIMARY KEY,
    name text NOT NULL,
    kind text NOT NULL CHECK (kind IN ('standard', 'management')),
    hash bytea NOT NULL,
    label text NOT NULL,
    created_at text NOT NULL,
    revoked_at text,
    last_used_at text,
    credit_limit double precision,
    rate_limit_rpm integer,
    spent double precision NOT NULL DEFAULT 0
  );
  CREATE TABLE key_requests (key_id text NOT NULL, at bigint NOT NULL);
  CREATE INDEX key_requests_by_time ON key_requests (at);
  CREATE FUNCTION verdict_keys_changed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM pg_notify('verdict_keys', '');
    RETURN NULL;
  END $$;
  CREATE TRIGGER api_keys_changed AFTER INSERT OR DELETE OR UPDATE OF name, kind, hash, revoked_at, credit_limit, rate_limit_rpm
    ON api_keys FOR EACH STATEMENT EXECUTE FUNCTION verdict_keys_changed();
  `,
  },
  {
    version: 9,
    sql: `
  -- Spend as an append-only ledger, one row per charged request (its id the key, so a write sent
  -- twice counts once), written by each instance in batches: never an update of the key's row,
  -- which all instances would queue on. A key's spend is its row's (charged before the ledger) plus
  -- its ledger's.
  CREATE TABLE spend_ledger (
    request_id text PRIMARY KEY,
    key_id text NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
    usd double precision NOT NULL,
    at double precision NOT NULL
  );
  CREATE INDEX spend_ledger_by_key ON spend_ledger (key_id);
  `,
  },
  {
    version: 14,
    sql: `
  -- The ledger is folded into the keys' rows by age (key-store.ts foldLedger): found by time, not by
  -- reading every row.
  CREATE INDEX spend_ledger_by_time ON spend_ledger (at);
  `,
  },
  {
    version: 16,
    sql: `
  -- What each key spent per UTC day: the ledger is folded into it with the keys' rows (key-store.ts
  -- foldLedger); GET /api/v1/key reads the day, week and month from it and the ledger not yet folded.
  CREATE TABLE key_spend_days (
    key_id text NOT NULL,
    day text NOT NULL,
    usd double precision NOT NULL,
    PRIMARY KEY (key_id, day)
  );
  `,
  },
];
