/**
 * Postgres schema steps of the saved question sets.
 */
import type { MigrationStep } from '../../migration-order';

export const STEPS: readonly MigrationStep[] = [
  {
    version: 4,
    sql: `
  CREATE TABLE question_sets (
    id text PRIMARY KEY,
    name text NOT NULL,
    request jsonb NOT NULL,
    created_at text NOT NULL,
    updated_at text NOT NULL,
    deleted_at text,
    sample boolean NOT NULL DEFAULT false
  );
  `,
  },
];
