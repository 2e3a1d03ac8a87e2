/**
 * SQLite schema steps of the reviews: items leased to one reviewer at a time, and people's answers.
 */
import type { MigrationStep } from '../../migration-order';

export const STEPS: readonly MigrationStep[] = [
  {
    version: 31,
    sql: `
  -- Who is answering an item now, until when (ms since the epoch): one reviewer at a time.
  CREATE TABLE review_leases (
    dataset_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    reviewer TEXT NOT NULL,
    until REAL NOT NULL,
    PRIMARY KEY (dataset_id, position),
    FOREIGN KEY (dataset_id, position) REFERENCES dataset_items (dataset_id, position) ON DELETE CASCADE
  );
  -- A person's answers to an item (the first became its expected answers unless flagged), who and when.
  CREATE TABLE reviews (
    dataset_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    reviewer TEXT NOT NULL,
    at TEXT NOT NULL,
    answers TEXT NOT NULL,
    flagged INTEGER NOT NULL,
    -- 1 when a second reviewer is to answer the item too (double review, for agreement)
    second_wanted INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (dataset_id, position, reviewer),
    FOREIGN KEY (dataset_id, position) REFERENCES dataset_items (dataset_id, position) ON DELETE CASCADE
  );
  -- Requests a cascade's human stage sent to people: the review id the caller was given (the
  -- request's id) and the item it became.
  CREATE TABLE human_reviews (
    id TEXT PRIMARY KEY,
    dataset_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    -- Where the person's answers are posted, and the caller's secret that signs them (never read back out).
    webhook_url TEXT,
    webhook_secret TEXT,
    FOREIGN KEY (dataset_id, position) REFERENCES dataset_items (dataset_id, position) ON DELETE CASCADE
  );
  `,
  },
  {
    version: 33,
    sql: `
  -- The cascade preset a human-stage request named, for the queue's figures per preset (NULL: none named).
  ALTER TABLE human_reviews ADD COLUMN preset TEXT;
  `,
  },
];
