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
  `
  -- Evaluations: labelled datasets and their items, runs over them, one result per item and model,
  -- saved calibrations; box review's verdicts, their history and image sizes; the old review table.
  -- JSON is kept as text, byte for byte the JSON.stringify text the SQLite file holds: an item's
  -- length, head and search read that text, objects keep their keys' order (jsonb sorts them), and
  -- text takes the escaped NUL character jsonb refuses. Text that is sorted, compared or searched is
  -- COLLATE "C", compared byte by byte as SQLite does whatever the database's default collation.
  -- Removing a dataset removes its items, runs, results, verdicts, history and image sizes.
  CREATE TABLE datasets (
    id text PRIMARY KEY,
    name text NOT NULL,
    status text NOT NULL CHECK (status IN ('importing', 'ready')),
    item_count integer NOT NULL DEFAULT 0,
    created_at text COLLATE "C" NOT NULL,
    sample boolean NOT NULL DEFAULT false
  );
  CREATE TABLE dataset_items (
    dataset_id text NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
    position integer NOT NULL,
    id text COLLATE "C" NOT NULL,
    state text COLLATE "C" NOT NULL,
    expected text NOT NULL DEFAULT '{}',
    PRIMARY KEY (dataset_id, position)
  );
  CREATE UNIQUE INDEX dataset_items_by_id ON dataset_items (dataset_id, id);
  CREATE TABLE eval_runs (
    id text PRIMARY KEY,
    name text NOT NULL,
    dataset_id text NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
    set_key text NOT NULL,
    request text NOT NULL,
    variants text NOT NULL,
    concurrency integer NOT NULL,
    budget_usd double precision,
    status text NOT NULL,
    message text,
    created_at text COLLATE "C" NOT NULL,
    finished_at text,
    calibrations text,
    baseline_id text,
    estimate text
  );
  CREATE INDEX eval_runs_by_dataset ON eval_runs (dataset_id);
  CREATE INDEX eval_runs_by_time ON eval_runs (created_at);
  CREATE TABLE eval_results (
    run_id text NOT NULL REFERENCES eval_runs (id) ON DELETE CASCADE,
    variant integer NOT NULL,
    position integer NOT NULL,
    ok boolean NOT NULL,
    answers text NOT NULL DEFAULT '{}',
    raw_answers text,
    methods text,
    attempts text,
    provider text,
    input_tokens integer NOT NULL DEFAULT 0,
    output_tokens integer NOT NULL DEFAULT 0,
    cost double precision,
    latency_ms double precision NOT NULL,
    error text,
    tries integer NOT NULL DEFAULT 1,
    retryable boolean NOT NULL DEFAULT true,
    answered_at text COLLATE "C",
    model_key text,
    content_chars integer NOT NULL DEFAULT 0,
    PRIMARY KEY (run_id, variant, position)
  );
  CREATE INDEX eval_results_failed ON eval_results (run_id) WHERE NOT ok;
  CREATE INDEX eval_results_by_model ON eval_results (model_key, position);
  CREATE TABLE calibrations (
    set_key text NOT NULL,
    model text NOT NULL,
    question text COLLATE "C" NOT NULL,
    temperature double precision NOT NULL,
    created_at text COLLATE "C" NOT NULL,
    PRIMARY KEY (set_key, model, question)
  );
  CREATE TABLE box_items (
    id text COLLATE "C" PRIMARY KEY,
    name text NOT NULL,
    data_url text NOT NULL,
    truth text NOT NULL DEFAULT '[]',
    answer text,
    answers text NOT NULL DEFAULT '{}',
    model text,
    run_id text,
    verdict text CHECK (verdict IN ('accepted', 'rejected')),
    verdict_run_id text,
    note text NOT NULL DEFAULT '',
    width integer,
    height integer,
    created_at text COLLATE "C" NOT NULL
  );
  CREATE TABLE box_verdicts (
    dataset_id text NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
    item_id text COLLATE "C" NOT NULL,
    question text COLLATE "C" NOT NULL DEFAULT '',
    model text COLLATE "C" NOT NULL DEFAULT '',
    verdict text CHECK (verdict IN ('accepted', 'rejected')),
    note text NOT NULL DEFAULT '',
    run_id text,
    variant integer NOT NULL DEFAULT 0,
    answered_at text,
    answers text NOT NULL DEFAULT '{}',
    truth text,
    updated_at text NOT NULL,
    PRIMARY KEY (dataset_id, item_id, question, model)
  );
  -- id: the order rows were written in, after ended_at (SQLite's rowid).
  CREATE TABLE box_verdict_history (
    id bigserial PRIMARY KEY,
    dataset_id text NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
    item_id text NOT NULL,
    question text NOT NULL,
    model text NOT NULL,
    verdict text NOT NULL,
    note text NOT NULL,
    given_at text NOT NULL,
    ended_at text COLLATE "C" NOT NULL
  );
  CREATE INDEX box_verdict_history_by_item ON box_verdict_history (dataset_id, item_id, model);
  CREATE TABLE box_image_sizes (
    dataset_id text NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
    item_id text NOT NULL,
    width integer,
    height integer,
    PRIMARY KEY (dataset_id, item_id)
  );
  -- Change notices: items (what a dataset's counts are kept against) on any write to dataset items;
  -- results (what the results matrix is kept against) on any write to results or dataset items. A
  -- dataset removed notifies through its cascade.
  CREATE TRIGGER dataset_items_changed AFTER INSERT OR UPDATE OR DELETE ON dataset_items
    FOR EACH STATEMENT EXECUTE FUNCTION verdict_notify('verdict_items');
  CREATE TRIGGER dataset_items_changed_results AFTER INSERT OR UPDATE OR DELETE ON dataset_items
    FOR EACH STATEMENT EXECUTE FUNCTION verdict_notify('verdict_results');
  CREATE TRIGGER eval_results_changed AFTER INSERT OR UPDATE OR DELETE ON eval_results
    FOR EACH STATEMENT EXECUTE FUNCTION verdict_notify('verdict_results');
  `,
  `
  -- A saved set's and a run's request keep their questions in the order they were written (the
  -- OpenAI Decisions shape answers in that order; the screens list them so): json keeps the text as
  -- written, jsonb sorts an object's keys.
  ALTER TABLE question_sets ALTER COLUMN request TYPE json USING request::text::json;
  ALTER TABLE decisions ALTER COLUMN request TYPE json USING request::text::json;
  ALTER TABLE decisions ALTER COLUMN response TYPE json USING response::text::json;
  ALTER TABLE decisions ALTER COLUMN methods TYPE json USING methods::text::json;
  ALTER TABLE decisions ALTER COLUMN routing TYPE json USING routing::text::json;
  -- Times in ms since the epoch are read from a clock with fractions of a millisecond, as SQLite keeps them.
  ALTER TABLE decisions ALTER COLUMN created_at TYPE double precision;
  ALTER TABLE key_requests ALTER COLUMN at TYPE double precision;
  ALTER TABLE attempts ALTER COLUMN started_at TYPE double precision;
  `,
  `
  -- Who sends a run's requests, and until when (ms since the epoch): one instance at a time, and a
  -- dead one's run taken up once its lease ends.
  ALTER TABLE eval_runs ADD COLUMN lease_owner text;
  ALTER TABLE eval_runs ADD COLUMN lease_until double precision;
  `,
  `
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
  `
  -- Endpoint figures per instance and minute, merged by each reader (the histograms are mergeable):
  -- one row for all instances would keep only the last writer's. changed_at (the database's clock,
  -- ms) lets an instance read only what the others changed since it last looked.
  ALTER TABLE metric_minutes ADD COLUMN instance text NOT NULL DEFAULT '';
  ALTER TABLE metric_minutes ADD COLUMN changed_at double precision NOT NULL DEFAULT 0;
  ALTER TABLE metric_minutes DROP CONSTRAINT metric_minutes_pkey;
  ALTER TABLE metric_minutes ADD PRIMARY KEY (endpoint_id, minute, instance);
  CREATE INDEX metric_minutes_by_change ON metric_minutes (changed_at);
  `,
  `
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
  `
  -- A team's live instances, each beating its row every few seconds (the database's clock, ms):
  -- a per-instance fallback divides rate limits by how many are alive while Redis is away.
  CREATE TABLE instances (
    name text PRIMARY KEY,
    seen_at double precision NOT NULL
  );
  `,
  `
  -- A running run's items spread over a team's instances: one row per item and model still to send,
  -- claimed by one instance at a time under a lease (taken with FOR UPDATE SKIP LOCKED, renewed while
  -- it is sent), holding the worst case of its request against the run's budget, and deleted in the
  -- commit that stores its result. A dead instance's claims lapse and are taken by the others.
  CREATE TABLE eval_claims (
    run_id text NOT NULL REFERENCES eval_runs (id) ON DELETE CASCADE,
    variant integer NOT NULL,
    position integer NOT NULL,
    owner text,
    lease_until double precision,
    reserved double precision NOT NULL DEFAULT 0,
    PRIMARY KEY (run_id, variant, position)
  );
  CREATE INDEX eval_claims_in_order ON eval_claims (run_id, position, variant);
  -- spread: its items are in eval_claims (else one instance sends it under the run's lease).
  -- not_before: a provider's Retry-After seen by any instance, respected by all (ms since the epoch).
  ALTER TABLE eval_runs ADD COLUMN spread boolean NOT NULL DEFAULT false;
  ALTER TABLE eval_runs ADD COLUMN not_before double precision;
  `,
  `
  -- The ledger is folded into the keys' rows by age (key-store.ts foldLedger): found by time, not by
  -- reading every row.
  CREATE INDEX spend_ledger_by_time ON spend_ledger (at);
  `,
  `
  -- Named cascades (a second model and when to ask it), saved from an evaluation's curve and used
  -- by name in requests, shared by every instance. source: the run and point it came from.
  CREATE TABLE cascade_presets (
    name text PRIMARY KEY,
    model text NOT NULL,
    first_model text,
    when_json json NOT NULL,
    source json,
    created_at text NOT NULL,
    updated_at text NOT NULL
  );
  `,
  `
  -- What each key spent per UTC day: the ledger is folded into it with the keys' rows (key-store.ts
  -- foldLedger); GET /api/v1/key reads the day, week and month from it and the ledger not yet folded.
  CREATE TABLE key_spend_days (
    key_id text NOT NULL,
    day text NOT NULL,
    usd double precision NOT NULL,
    PRIMARY KEY (key_id, day)
  );
  `,
];

/** The channels the schema notifies on, by domain. */
export const CHANNELS = {
  keys: 'verdict_keys',
  settings: 'verdict_settings',
  refusals: 'verdict_refusals',
  items: 'verdict_items',
  results: 'verdict_results',
  /** a run was spread over the instances: its id */
  runs: 'verdict_runs',
} as const;
