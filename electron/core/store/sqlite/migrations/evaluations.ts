/**
 * SQLite schema steps of the evaluations: datasets and their items, runs, results, calibrations,
 * claims on a run's items, and the revisions the results and item counts are kept against.
 */
import type { MigrationStep } from '../../migration-order';

export const STEPS: readonly MigrationStep[] = [
  {
    version: 12,
    sql: `
  -- Evaluations: labelled datasets, runs over them, one result per item and model, saved calibrations.
  CREATE TABLE datasets (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('importing', 'ready')),
    item_count INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL
  );
  CREATE TABLE dataset_items (
    dataset_id TEXT NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    id TEXT NOT NULL,
    state TEXT NOT NULL,
    expected TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (dataset_id, position)
  );
  CREATE UNIQUE INDEX dataset_items_by_id ON dataset_items (dataset_id, id);
  CREATE TABLE eval_runs (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    dataset_id TEXT NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
    set_key TEXT NOT NULL,
    request TEXT NOT NULL,
    variants TEXT NOT NULL,
    concurrency INTEGER NOT NULL,
    budget_usd REAL,
    status TEXT NOT NULL,
    message TEXT,
    created_at TEXT NOT NULL,
    finished_at TEXT
  );
  CREATE TABLE eval_results (
    run_id TEXT NOT NULL REFERENCES eval_runs (id) ON DELETE CASCADE,
    variant INTEGER NOT NULL,
    position INTEGER NOT NULL,
    ok INTEGER NOT NULL,
    answers TEXT NOT NULL DEFAULT '{}',
    raw_answers TEXT,
    methods TEXT,
    attempts TEXT,
    provider TEXT,
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    cost REAL,
    latency_ms REAL NOT NULL,
    error TEXT,
    PRIMARY KEY (run_id, variant, position)
  );
  CREATE TABLE calibrations (
    set_key TEXT NOT NULL,
    model TEXT NOT NULL,
    question TEXT NOT NULL,
    temperature REAL NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (set_key, model, question)
  );
  `,
  },
  {
    version: 15,
    sql: `
  -- Evaluation results: how many times the item was sent, and whether a failure may be retried on resume.
  ALTER TABLE eval_results ADD COLUMN tries INTEGER NOT NULL DEFAULT 1;
  ALTER TABLE eval_results ADD COLUMN retryable INTEGER NOT NULL DEFAULT 1;
  `,
  },
  {
    version: 16,
    sql: `
  -- Failed evaluation results apart, so counting those to retry reads only them.
  CREATE INDEX eval_results_failed ON eval_results (run_id) WHERE ok = 0;
  `,
  },
  {
    version: 20,
    sql: `
  -- The calibrations a run applies, fixed when it starts: [{variant, question, temperature}] (null for
  -- runs from before, which read the saved ones at each launch). A calibration saved or deleted later
  -- does not change the answers of a run already under way, and the run says which it applied.
  ALTER TABLE eval_runs ADD COLUMN calibrations TEXT;
  `,
  },
  {
    version: 21,
    sql: `
  -- A revision number that every write to evaluation results or dataset items moves, whoever makes
  -- it (any process, any code path): what the results matrix keeps its judged rows against, so
  -- writes elsewhere (metrics, spend, settings) leave them be.
  CREATE TABLE revisions (name TEXT PRIMARY KEY, n INTEGER NOT NULL DEFAULT 0);
  INSERT INTO revisions (name, n) VALUES ('results', 0);
  CREATE TRIGGER eval_results_insert_revision AFTER INSERT ON eval_results BEGIN UPDATE revisions SET n = n + 1 WHERE name = 'results'; END;
  CREATE TRIGGER eval_results_update_revision AFTER UPDATE ON eval_results BEGIN UPDATE revisions SET n = n + 1 WHERE name = 'results'; END;
  CREATE TRIGGER eval_results_delete_revision AFTER DELETE ON eval_results BEGIN UPDATE revisions SET n = n + 1 WHERE name = 'results'; END;
  CREATE TRIGGER dataset_items_insert_revision AFTER INSERT ON dataset_items BEGIN UPDATE revisions SET n = n + 1 WHERE name = 'results'; END;
  CREATE TRIGGER dataset_items_update_revision AFTER UPDATE ON dataset_items BEGIN UPDATE revisions SET n = n + 1 WHERE name = 'results'; END;
  CREATE TRIGGER dataset_items_delete_revision AFTER DELETE ON dataset_items BEGIN UPDATE revisions SET n = n + 1 WHERE name = 'results'; END;
  `,
  },
  {
    version: 22,
    sql: `
  -- The same for dataset items alone: what a dataset's counts of labelled items are kept against,
  -- so listing datasets does not read every item's expected answers each time.
  INSERT INTO revisions (name, n) VALUES ('items', 0);
  CREATE TRIGGER dataset_items_insert_items_revision AFTER INSERT ON dataset_items BEGIN UPDATE revisions SET n = n + 1 WHERE name = 'items'; END;
  CREATE TRIGGER dataset_items_update_items_revision AFTER UPDATE ON dataset_items BEGIN UPDATE revisions SET n = n + 1 WHERE name = 'items'; END;
  CREATE TRIGGER dataset_items_delete_items_revision AFTER DELETE ON dataset_items BEGIN UPDATE revisions SET n = n + 1 WHERE name = 'items'; END;
  `,
  },
  {
    version: 25,
    sql: `
  -- Who sends a run's requests, and until when (ms since the epoch): one process at a time, and a
  -- dead one's run taken up once its lease ends.
  ALTER TABLE eval_runs ADD COLUMN lease_owner TEXT;
  ALTER TABLE eval_runs ADD COLUMN lease_until REAL;
  `,
  },
  {
    version: 27,
    sql: `
  -- A run's items as claims, as on Postgres (one process sends every run here, but the port is one).
  CREATE TABLE eval_claims (
    run_id TEXT NOT NULL REFERENCES eval_runs (id) ON DELETE CASCADE,
    variant INTEGER NOT NULL,
    position INTEGER NOT NULL,
    owner TEXT,
    lease_until REAL,
    reserved REAL NOT NULL DEFAULT 0,
    PRIMARY KEY (run_id, variant, position)
  );
  CREATE INDEX eval_claims_in_order ON eval_claims (run_id, position, variant);
  ALTER TABLE eval_runs ADD COLUMN spread INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE eval_runs ADD COLUMN not_before REAL;
  `,
  },
];
