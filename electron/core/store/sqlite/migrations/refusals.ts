/**
 * SQLite schema steps of endpoint refusals: parameters an endpoint refused at run time.
 */
import type { MigrationStep } from '../../migration-order';

export const STEPS: readonly MigrationStep[] = [
  {
    version: 11,
    sql: `
  -- Parameters or features an endpoint refused at run time (a 400/422 saying so), so later requests leave them out.
  CREATE TABLE endpoint_refusals (
    endpoint_id TEXT NOT NULL,
    parameter TEXT NOT NULL,
    message TEXT NOT NULL,
    learned_at TEXT NOT NULL,
    PRIMARY KEY (endpoint_id, parameter)
  );
  `,
  },
];
