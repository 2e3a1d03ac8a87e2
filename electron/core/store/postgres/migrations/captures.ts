/**
 * Postgres schema steps of the capture rules and the predictions of the items they captured.
 */
import type { MigrationStep } from '../../migration-order';

export const STEPS: readonly MigrationStep[] = [
  {
    version: 17,
    sql: `
  -- Capture rules: which live requests become items of a dataset, with their answers as predictions.
  -- A rule goes with its dataset; its captured items stay when the rule is removed.
  CREATE TABLE capture_rules (
    id text PRIMARY KEY,
    name text NOT NULL,
    dataset_id text NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
    key_ids text,
    question_set_id text,
    question_signature text,
    models text,
    when_json text,
    sample_rate double precision NOT NULL,
    daily_cap integer NOT NULL,
    retention_days integer NOT NULL,
    keep_images integer NOT NULL,
    created_at text NOT NULL
  );
  -- A captured item's prediction (never a label): the answers, what answered and what it cost; day is
  -- the UTC day it was captured on, which the daily cap counts.
  CREATE TABLE captured_items (
    dataset_id text NOT NULL,
    position integer NOT NULL,
    rule_id text NOT NULL,
    day text NOT NULL,
    request_id text NOT NULL,
    key_id text NOT NULL,
    model text NOT NULL,
    provider text,
    cost double precision,
    captured_at text NOT NULL,
    questions text NOT NULL,
    answers text NOT NULL,
    PRIMARY KEY (dataset_id, position),
    FOREIGN KEY (dataset_id, position) REFERENCES dataset_items (dataset_id, position) ON DELETE CASCADE
  );
  CREATE INDEX captured_items_by_day ON captured_items (day, rule_id);
  CREATE INDEX captured_items_by_time ON captured_items (rule_id, captured_at);
  `,
  },
  {
    version: 19,
    sql: `
  -- How a captured request went, for the monitor: its latency, whether a cascade escalated it or left
  -- it provisional for a person, and the questions the model declined (JSON; NULL for earlier captures).
  ALTER TABLE captured_items ADD COLUMN outcome text;
  `,
  },
];
