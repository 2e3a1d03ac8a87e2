/**
 * SQLite schema steps of the capture rules and the predictions of the items they captured.
 */
import type { MigrationStep } from '../../migration-order';

export const STEPS: readonly MigrationStep[] = [
  {
    version: 30,
    sql: `
  -- Capture rules: which live requests become items of a dataset, with their answers as predictions.
  -- A rule goes with its dataset; its captured items stay when the rule is removed.
  CREATE TABLE capture_rules (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    dataset_id TEXT NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
    key_ids TEXT,
    question_set_id TEXT,
    question_signature TEXT,
    models TEXT,
    when_json TEXT,
    sample_rate REAL NOT NULL,
    daily_cap INTEGER NOT NULL,
    retention_days INTEGER NOT NULL,
    keep_images INTEGER NOT NULL,
    created_at TEXT NOT NULL
  );
  -- A captured item's prediction (never a label): the answers, what answered and what it cost; day is
  -- the UTC day it was captured on, which the daily cap counts.
  CREATE TABLE captured_items (
    dataset_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    rule_id TEXT NOT NULL,
    day TEXT NOT NULL,
    request_id TEXT NOT NULL,
    key_id TEXT NOT NULL,
    model TEXT NOT NULL,
    provider TEXT,
    cost REAL,
    captured_at TEXT NOT NULL,
    questions TEXT NOT NULL,
    answers TEXT NOT NULL,
    PRIMARY KEY (dataset_id, position),
    FOREIGN KEY (dataset_id, position) REFERENCES dataset_items (dataset_id, position) ON DELETE CASCADE
  );
  CREATE INDEX captured_items_by_day ON captured_items (day, rule_id);
  CREATE INDEX captured_items_by_time ON captured_items (rule_id, captured_at);
  `,
  },
  {
    version: 32,
    sql: `
  -- How a captured request went, for the monitor: its latency, whether a cascade escalated it or left
  -- it provisional for a person, and the questions the model declined (JSON; NULL for earlier captures).
  ALTER TABLE captured_items ADD COLUMN outcome TEXT;
  `,
  },
];
