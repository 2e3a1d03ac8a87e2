/**
 * SQLite schema steps that span domains, each saying which: one step changes several domains'
 * tables at once and, released so, stays whole. A step of one domain goes in that domain's file.
 */
import type { MigrationStep } from '../../migration-order';

export const STEPS: readonly MigrationStep[] = [
  // Spans settings, keys and provider keys: the first schema.
  {
    version: 1,
    sql: `
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
  },
  // Spans question sets and decisions: saved sets, and the set and label a decision was run with.
  {
    version: 5,
    sql: `
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
  },
  // Spans box review and evaluations: verdicts per model, and when an evaluation result was answered.
  {
    version: 19,
    sql: `
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
  },
  // Spans question sets, evaluations and box review: samples marked, runs' baselines and estimates,
  // verdict history.
  {
    version: 23,
    sql: `
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
  },
  // Spans evaluations and box review: results' model keys and content lengths, when answers and
  // verdicts' answers were given.
  {
    version: 24,
    sql: `
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
  },
];
