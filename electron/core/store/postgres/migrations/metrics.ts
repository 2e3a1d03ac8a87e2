/**
 * Postgres schema steps of the endpoint metrics: each attempt, and figures per endpoint, minute
 * and instance.
 */
import type { MigrationStep } from '../../migration-order';

export const STEPS: readonly MigrationStep[] = [
  {
    version: 3,
    sql: `
  CREATE TABLE attempts (
    id bigserial PRIMARY KEY,
    request_id text NOT NULL,
    endpoint_id text NOT NULL,
    started_at bigint NOT NULL,
    ttfb_ms double precision,
    first_token_ms double precision,
    total_ms double precision NOT NULL,
    input_tokens integer,
    output_tokens integer,
    outcome text NOT NULL,
    provider_fault boolean NOT NULL,
    message text
  );
  CREATE INDEX attempts_by_time ON attempts (started_at);
  CREATE INDEX attempts_by_endpoint_time ON attempts (endpoint_id, started_at);
  CREATE TABLE metric_minutes (
    endpoint_id text NOT NULL,
    minute bigint NOT NULL,
    attempts integer NOT NULL,
    faults integer NOT NULL,
    latency text,
    throughput text,
    PRIMARY KEY (endpoint_id, minute)
  );
  `,
  },
  {
    version: 10,
    sql: `
  -- Endpoint figures per instance and minute, merged by each reader (the histograms are mergeable):
  -- one row for all instances would keep only the last writer's. changed_at (the database's clock,
  -- ms) lets an instance read only what the others changed since it last looked.
  ALTER TABLE metric_minutes ADD COLUMN instance text NOT NULL DEFAULT '';
  ALTER TABLE metric_minutes ADD COLUMN changed_at double precision NOT NULL DEFAULT 0;
  ALTER TABLE metric_minutes DROP CONSTRAINT metric_minutes_pkey;
  ALTER TABLE metric_minutes ADD PRIMARY KEY (endpoint_id, minute, instance);
  CREATE INDEX metric_minutes_by_change ON metric_minutes (changed_at);
  `,
  },
];
