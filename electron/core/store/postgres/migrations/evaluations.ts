/**
 * Postgres schema steps of the evaluations (made in shared.ts with box review): runs' leases
 * and their items' claims across instances.
 */
import type { MigrationStep } from '../../migration-order';

export const STEPS: readonly MigrationStep[] = [
  {
    version: 8,
    sql: `
  -- Who sends a run's requests, and until when (ms since the epoch): one instance at a time, and a
  -- dead one's run taken up once its lease ends.
  ALTER TABLE eval_runs ADD COLUMN lease_owner text;
  ALTER TABLE eval_runs ADD COLUMN lease_until double precision;
  `,
  },
  {
    version: 13,
    sql: `
  -- A running run's items spread over a team's instances: one row per item and model still to send,
  -- claimed by one instance at a time under a lease (taken with FOR UPDATE SKIP LOCKED, renewed while
  -- it is sent), holding the worst case of its request against the run's budget, and deleted in the
  -- commit that stores its result. A dead instance's claims lapse and are taken by the others.
  CREATE TABLE eval_claims (
    run_id text NOT NULL REFERENCES eval_runs (id) ON DELETE CASCADE,
    variant integer NOT NULL,
    position integer NOT NULL,
    owner text,
    lease_until double precision,
    reserved double precision NOT NULL DEFAULT 0,
    PRIMARY KEY (run_id, variant, position)
  );
  CREATE INDEX eval_claims_in_order ON eval_claims (run_id, position, variant);
  -- spread: its items are in eval_claims (else one instance sends it under the run's lease).
  -- not_before: a provider's Retry-After seen by any instance, respected by all (ms since the epoch).
  ALTER TABLE eval_runs ADD COLUMN spread boolean NOT NULL DEFAULT false;
  ALTER TABLE eval_runs ADD COLUMN not_before double precision;
  `,
  },
];
