/**
 * Postgres schema steps that span domains, each saying which: one step changes several domains'
 * tables at once and, released so, stays whole. A step of one domain goes in that domain's file.
 */
import type { MigrationStep } from '../../migration-order';

export const STEPS: readonly MigrationStep[] = [
  // Spans settings, provider keys and refusals, and makes verdict_notify(), the change notice every
  // later domain's triggers use.
  {
    version: 2,
    sql: `
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
  },
  // Spans evaluations and box review: every table of both, made at once.
  {
    version: 6,
    sql: `
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
  },
  // Spans question sets, decisions, keys and metrics: json for requests, fractional ms for times.
  {
    version: 7,
    sql: `
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
  },
];
