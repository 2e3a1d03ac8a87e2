/**
 * Postgres schema steps of presence: a team's live instances.
 */
import type { MigrationStep } from '../../migration-order';

export const STEPS: readonly MigrationStep[] = [
  {
    version: 12,
    sql: `
  -- A team's live instances, each beating its row every few seconds (the database's clock, ms):
  -- a per-instance fallback divides rate limits by how many are alive while Redis is away.
  CREATE TABLE instances (
    name text PRIMARY KEY,
    seen_at double precision NOT NULL
  );
  `,
  },
];
