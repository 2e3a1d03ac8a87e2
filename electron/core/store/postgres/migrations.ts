/**
 * The Postgres schema, one entry a version, applied in order at start (database.ts) under a
 * transaction-scoped advisory lock. Never edit an entry that has shipped: add one.
 *
 * Change notices: a statement-level trigger sends NOTIFY on the domain's channel when what the
 * request path keeps in memory changes; a transaction's notices are delivered once it commits.
 */
export const PG_MIGRATIONS: readonly string[] = [
  `
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
  `
  CREATE TABLE settings (key text PRIMARY KEY, value jsonb NOT NULL);
  CREATE TABLE provider_key_meta (provider text PRIMARY KEY, updated_at text NOT NULL);
  CREATE TABLE endpoint_refusals (
    endpoint_id text NOT NULL,
    parameter text NOT NULL,
    message text NOT NULL,
    learned_at text NOT NULL,
    PRIMARY KEY (endpoint_id, parameter)
  );
  CREATE FUNCTION verdict_notify() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM pg_notify(TG_ARGV[0], '');
    RETURN NULL;
  END $$;
  CREATE TRIGGER settings_changed AFTER INSERT OR UPDATE OR DELETE ON settings
    FOR EACH STATEMENT EXECUTE FUNCTION verdict_notify('verdict_settings');
  CREATE TRIGGER endpoint_refusals_changed AFTER INSERT OR UPDATE OR DELETE ON endpoint_refusals
    FOR EACH STATEMENT EXECUTE FUNCTION verdict_notify('verdict_refusals');
  `,
  `
  CREATE TABLE attempts (
    id bigserial PRIMARY KEY,
    request_id text NOT NULL,
    endpoint_id text NOT NULL,
    started_at bigint NOT NULL,
    ttfb_ms double precision,
    first_token_ms double precision,
    total_ms double precision NOT NULL,
    input_tokens integer,
    output_tokens integer,
    outcome text NOT NULL,
    provider_fault boolean NOT NULL,
    message text
  );
  CREATE INDEX attempts_by_time ON attempts (started_at);
  CREATE INDEX attempts_by_endpoint_time ON attempts (endpoint_id, started_at);
  CREATE TABLE metric_minutes (
    endpoint_id text NOT NULL,
    minute bigint NOT NULL,
    attempts integer NOT NULL,
    faults integer NOT NULL,
    latency text,
    throughput text,
    PRIMARY KEY (endpoint_id, minute)
  );
  `,
  `
  CREATE TABLE question_sets (
    id text PRIMARY KEY,
    name text NOT NULL,
    request jsonb NOT NULL,
    created_at text NOT NULL,
    updated_at text NOT NULL,
    deleted_at text,
    sample boolean NOT NULL DEFAULT false
  );
  `,
  `
  CREATE TABLE decisions (
    id text PRIMARY KEY,
    created_at bigint NOT NULL,
    origin text NOT NULL,
    key_id text,
    session_id text,
    "user" text,
    model text NOT NULL,
    provider text,
    endpoint_id text,
    status integer NOT NULL,
    latency_ms double precision NOT NULL,
    input_tokens integer,
    output_tokens integer,
    cost double precision,
    methods jsonb,
    question_count integer NOT NULL,
    request jsonb,
    response jsonb,
    set_id text,
    label text,
    routing jsonb
  );
  CREATE INDEX decisions_by_time ON decisions (created_at);
  CREATE INDEX decisions_by_session ON decisions (session_id);
  CREATE INDEX decisions_by_key ON decisions (key_id);
  `,
];

/** The channels the schema notifies on, by domain. */
export const CHANNELS = { keys: 'verdict_keys', settings: 'verdict_settings', refusals: 'verdict_refusals' } as const;
