/**
 * SQLite schema steps of the named cascade presets.
 */
import type { MigrationStep } from '../../migration-order';

export const STEPS: readonly MigrationStep[] = [
  {
    version: 28,
    sql: `
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
  },
];
