/**
 * SQLite schema steps of box review: the old review table (box_items), verdicts on dataset
 * items and image sizes.
 */
import type { MigrationStep } from '../../migration-order';

export const STEPS: readonly MigrationStep[] = [
  {
    version: 6,
    sql: `
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
  },
  {
    version: 14,
    sql: `
  -- Box review: answers by box question, the run a verdict was given on (a later run makes it stale),
  -- and the image's size in pixels for exports.
  ALTER TABLE box_items ADD COLUMN answers TEXT NOT NULL DEFAULT '{}';
  ALTER TABLE box_items ADD COLUMN verdict_run_id TEXT;
  ALTER TABLE box_items ADD COLUMN width INTEGER;
  ALTER TABLE box_items ADD COLUMN height INTEGER;
  `,
  },
  {
    version: 17,
    sql: `
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
  },
  {
    version: 18,
    sql: `
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
  },
];
