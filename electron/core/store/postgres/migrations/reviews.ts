/**
 * Postgres schema steps of the reviews: items leased to one reviewer at a time, and people's answers.
 */
import type { MigrationStep } from '../../migration-order';

export const STEPS: readonly MigrationStep[] = [
  {
    version: 18,
    sql: `
  -- Who is answering an item now, until when (ms since the epoch): one reviewer at a time.
  CREATE TABLE review_leases (
    dataset_id text NOT NULL,
    position integer NOT NULL,
    reviewer text NOT NULL,
    until double precision NOT NULL,
    PRIMARY KEY (dataset_id, position),
    FOREIGN KEY (dataset_id, position) REFERENCES dataset_items (dataset_id, position) ON DELETE CASCADE
  );
  -- A person's answers to an item (the first became its expected answers unless flagged), who and when.
  CREATE TABLE reviews (
    dataset_id text NOT NULL,
    position integer NOT NULL,
    reviewer text NOT NULL,
    at text NOT NULL,
    answers text NOT NULL,
    flagged integer NOT NULL,
    -- 1 when a second reviewer is to answer the item too (double review, for agreement)
    second_wanted integer NOT NULL DEFAULT 0,
    PRIMARY KEY (dataset_id, position, reviewer),
    FOREIGN KEY (dataset_id, position) REFERENCES dataset_items (dataset_id, position) ON DELETE CASCADE
  );
  -- Requests a cascade's human stage sent to people: the review id the caller was given (the
  -- request's id) and the item it became.
  CREATE TABLE human_reviews (
    id text PRIMARY KEY,
    dataset_id text NOT NULL,
    position integer NOT NULL,
    created_at text NOT NULL,
    -- Where the person's answers are posted, and the caller's secret that signs them (never read back out).
    webhook_url text,
    webhook_secret text,
    FOREIGN KEY (dataset_id, position) REFERENCES dataset_items (dataset_id, position) ON DELETE CASCADE
  );
  `,
  },
  {
    version: 20,
    sql: `
  -- The cascade preset a human-stage request named, for the queue's figures per preset (NULL: none named).
  ALTER TABLE human_reviews ADD COLUMN preset text;
  `,
  },
];
