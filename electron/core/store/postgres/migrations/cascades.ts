/**
 * Postgres schema steps of the named cascade presets.
 */
import type { MigrationStep } from '../../migration-order';

export const STEPS: readonly MigrationStep[] = [
  {
    version: 15,
    sql: `
  -- Named cascades (a second model and when to ask it), saved from an evaluation's curve and used
  -- by name in requests, shared by every instance. source: the run and point it came from.
  CREATE TABLE cascade_presets (
    name text PRIMARY KEY,
    model text NOT NULL,
    first_model text,
    when_json json NOT NULL,
    source json,
    created_at text NOT NULL,
    updated_at text NOT NULL
  );
  `,
  },
];
