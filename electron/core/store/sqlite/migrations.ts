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
  `
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
  `
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
  `
  ALTER TABLE api_keys ADD COLUMN credit_limit REAL;
  ALTER TABLE api_keys ADD COLUMN rate_limit_rpm INTEGER;
  CREATE INDEX decisions_by_key ON decisions (key_id);
  `,
  `
  CREATE TABLE question_sets (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    request TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    deleted_at TEXT
  );
  ALTER TABLE decisions ADD COLUMN set_id TEXT;
  ALTER TABLE decisions ADD COLUMN label TEXT;
  `,
  `
  CREATE TABLE box_items (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    data_url TEXT NOT NULL,
    truth TEXT NOT NULL DEFAULT '[]',
    answer TEXT,
    model TEXT,
    run_id TEXT,
    verdict TEXT CHECK (verdict IN ('accepted', 'rejected')),
    note TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL
  );
  `,
  `
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
  `
  ALTER TABLE api_keys ADD COLUMN spent_archived REAL NOT NULL DEFAULT 0;
  `,
  `
  ALTER TABLE api_keys ADD COLUMN spent_logged REAL NOT NULL DEFAULT 0;
  CREATE TABLE request_log_checkpoint (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    file TEXT NOT NULL,
    byte_offset INTEGER NOT NULL
  );
  `,
  `
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
  `
  -- Parameters or features an endpoint refused at run time (a 400/422 saying so), so later requests leave them out.
  CREATE TABLE endpoint_refusals (
    endpoint_id TEXT NOT NULL,
    parameter TEXT NOT NULL,
    message TEXT NOT NULL,
    learned_at TEXT NOT NULL,
    PRIMARY KEY (endpoint_id, parameter)
  );
  `,
  `
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
  `
  -- How each inspector run was routed: attempts in order with their reasons, and endpoints left out.
  ALTER TABLE decisions ADD COLUMN routing TEXT;
  `,
  `
  -- Box review: answers by box question, the run a verdict was given on (a later run makes it stale),
  -- and the image's size in pixels for exports.
  ALTER TABLE box_items ADD COLUMN answers TEXT NOT NULL DEFAULT '{}';
  ALTER TABLE box_items ADD COLUMN verdict_run_id TEXT;
  ALTER TABLE box_items ADD COLUMN width INTEGER;
  ALTER TABLE box_items ADD COLUMN height INTEGER;
  `,
  `
  -- Evaluation results: how many times the item was sent, and whether a failure may be retried on resume.
  ALTER TABLE eval_results ADD COLUMN tries INTEGER NOT NULL DEFAULT 1;
  ALTER TABLE eval_results ADD COLUMN retryable INTEGER NOT NULL DEFAULT 1;
  `,
  `
  -- Failed evaluation results apart, so counting those to retry reads only them.
  CREATE INDEX eval_results_failed ON eval_results (run_id) WHERE ok = 0;
  `,
  `
  -- Box review of dataset items: one verdict and note per item, with the answers it judged (the run,
  -- the model's place in it and its boxes), so a verdict on answers that changed since shows as stale.
  CREATE TABLE box_verdicts (
    dataset_id TEXT NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
    item_id TEXT NOT NULL,
    verdict TEXT CHECK (verdict IN ('accepted', 'rejected')),
    note TEXT NOT NULL DEFAULT '',
    run_id TEXT,
    variant INTEGER NOT NULL DEFAULT 0,
    answers TEXT NOT NULL DEFAULT '{}',
    updated_at TEXT NOT NULL,
    PRIMARY KEY (dataset_id, item_id)
  );
  `,
  `
  -- The pixel size of each dataset image under box review, read once (nulls: its header could not be
  -- read), so listing a dataset never reads its images again.
  CREATE TABLE box_image_sizes (
    dataset_id TEXT NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
    item_id TEXT NOT NULL,
    width INTEGER,
    height INTEGER,
    PRIMARY KEY (dataset_id, item_id)
  );
  `,
  `
  -- Box verdicts per model: a verdict judges one model's answer to an item's box questions (question
  -- '' is every box question of the item) and remembers that answer (its run, the model's place in
  -- it, when it was answered, its boxes) and the truth it was given against, so a newer answer for
  -- the same item and model, or truth edited since, marks it stale. Rows from before are attached to
  -- the model of the run they were given on when it is known, else to model '' (model unknown). A
  -- model is named as a run names it: with its label when it has one ("model (label)"), so one model
  -- under two provider preferences is two models here as in Evaluations.
  -- Evaluation results say when they were answered (null before: the run's start stands for it).
  ALTER TABLE eval_results ADD COLUMN answered_at TEXT;
  CREATE TABLE box_verdicts_by_model (
    dataset_id TEXT NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
    item_id TEXT NOT NULL,
    question TEXT NOT NULL DEFAULT '',
    model TEXT NOT NULL DEFAULT '',
    verdict TEXT CHECK (verdict IN ('accepted', 'rejected')),
    note TEXT NOT NULL DEFAULT '',
    run_id TEXT,
    variant INTEGER NOT NULL DEFAULT 0,
    answered_at TEXT,
    answers TEXT NOT NULL DEFAULT '{}',
    truth TEXT,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (dataset_id, item_id, question, model)
  );
  INSERT INTO box_verdicts_by_model (dataset_id, item_id, question, model, verdict, note, run_id, variant, answered_at, answers, truth, updated_at)
    SELECT v.dataset_id, v.item_id, '', COALESCE(json_extract(r.variants, '$[' || v.variant || '].model') || ' (' || json_extract(r.variants, '$[' || v.variant || '].label') || ')', json_extract(r.variants, '$[' || v.variant || '].model'), ''), v.verdict, v.note, v.run_id, v.variant, NULL, v.answers, NULL, v.updated_at
    FROM box_verdicts v LEFT JOIN eval_runs r ON r.id = v.run_id;
  DROP TABLE box_verdicts;
  ALTER TABLE box_verdicts_by_model RENAME TO box_verdicts;
  `,
  `
  -- The calibrations a run applies, fixed when it starts: [{variant, question, temperature}] (null for
  -- runs from before, which read the saved ones at each launch). A calibration saved or deleted later
  -- does not change the answers of a run already under way, and the run says which it applied.
  ALTER TABLE eval_runs ADD COLUMN calibrations TEXT;
  `,
  `
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
  `
  -- The same for dataset items alone: what a dataset's counts of labelled items are kept against,
  -- so listing datasets does not read every item's expected answers each time.
  INSERT INTO revisions (name, n) VALUES ('items', 0);
  CREATE TRIGGER dataset_items_insert_items_revision AFTER INSERT ON dataset_items BEGIN UPDATE revisions SET n = n + 1 WHERE name = 'items'; END;
  CREATE TRIGGER dataset_items_update_items_revision AFTER UPDATE ON dataset_items BEGIN UPDATE revisions SET n = n + 1 WHERE name = 'items'; END;
  CREATE TRIGGER dataset_items_delete_items_revision AFTER DELETE ON dataset_items BEGIN UPDATE revisions SET n = n + 1 WHERE name = 'items'; END;
  `,
  `
  -- Samples offered on first start are marked, so lists say so and one action removes them.
  ALTER TABLE question_sets ADD COLUMN sample INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE datasets ADD COLUMN sample INTEGER NOT NULL DEFAULT 0;
  -- A run compared against an earlier run over the same dataset (its baseline), and what its estimate
  -- said when it started (JSON), so a finished run shows estimate against actual.
  ALTER TABLE eval_runs ADD COLUMN baseline_id TEXT;
  ALTER TABLE eval_runs ADD COLUMN estimate TEXT;
  -- Verdicts replaced or cleared, each with the note written for it: a note stays with its verdict.
  CREATE TABLE box_verdict_history (
    dataset_id TEXT NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
    item_id TEXT NOT NULL,
    question TEXT NOT NULL,
    model TEXT NOT NULL,
    verdict TEXT NOT NULL,
    note TEXT NOT NULL,
    given_at TEXT NOT NULL,
    ended_at TEXT NOT NULL
  );
  CREATE INDEX box_verdict_history_by_item ON box_verdict_history (dataset_id, item_id, model);
  `,
  `
  -- Each result names its model as the run names it (variantKeys; filled for earlier results at
  -- open), so a model's answers are found across runs without reading the runs' variants; and how
  -- long the item's content was, so the expected cost is refined without reading dataset items. When
  -- an answer or a verdict's answer was given is kept on it (earlier ones: their run's start).
  ALTER TABLE eval_results ADD COLUMN model_key TEXT;
  ALTER TABLE eval_results ADD COLUMN content_chars INTEGER NOT NULL DEFAULT 0;
  UPDATE eval_results SET answered_at = (SELECT r.created_at FROM eval_runs r WHERE r.id = eval_results.run_id) WHERE answered_at IS NULL;
  UPDATE eval_results SET content_chars = COALESCE((SELECT length(i.state) FROM eval_runs r JOIN dataset_items i ON i.dataset_id = r.dataset_id AND i.position = eval_results.position WHERE r.id = eval_results.run_id), 0);
  UPDATE box_verdicts SET answered_at = (SELECT r.created_at FROM eval_runs r WHERE r.id = box_verdicts.run_id) WHERE answered_at IS NULL AND run_id IS NOT NULL;
  CREATE INDEX eval_results_by_model ON eval_results (model_key, position);
  `,
  `
  -- Who sends a run's requests, and until when (ms since the epoch): one process at a time, and a
  -- dead one's run taken up once its lease ends.
  ALTER TABLE eval_runs ADD COLUMN lease_owner TEXT;
  ALTER TABLE eval_runs ADD COLUMN lease_until REAL;
  `,
  `
  -- The audit log: who created, changed or revoked keys, limits, sets and datasets. Appended only;
  -- seq keeps the order entries were added in (entries of one millisecond stay in order).
  CREATE TABLE audit_log (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    at TEXT NOT NULL,
    actor_kind TEXT NOT NULL,
    actor_key_id TEXT,
    actor_key_name TEXT,
    action TEXT NOT NULL,
    target_kind TEXT NOT NULL,
    target_id TEXT NOT NULL,
    target_name TEXT NOT NULL,
    details TEXT NOT NULL
  );
  CREATE INDEX audit_log_by_time ON audit_log (at, seq);
  -- The web UI's sign-ins with a management key: a SHA-256 of the session's token, never the token.
  CREATE TABLE ui_sessions (
    token_hash BLOB PRIMARY KEY,
    key_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
  );
  CREATE INDEX ui_sessions_by_expiry ON ui_sessions (expires_at);
  `,
  `
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
  `
  -- Named cascades (a second model and when to ask it), saved from an evaluation's curve and used
  -- by name in requests. The condition as JSON text; source: the run and point it came from.
  CREATE TABLE cascade_presets (
    name TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    first_model TEXT,
    when_json TEXT NOT NULL,
    source TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  `,
  `
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
];
