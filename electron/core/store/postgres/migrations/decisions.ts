/**
 * Postgres schema steps of the decisions: each request's record (inspector runs and API calls).
 */
import type { MigrationStep } from '../../migration-order';

export const STEPS: readonly MigrationStep[] = [
  {
    version: 5,
    sql: `
  CREATE TABLE decisions (
    id text PRIMARY KEY,
    created_at bigint NOT NULL,
    origin text NOT NULL,
    key_id text,
    session_id text,
    "user" text,
    model text NOT NULL,
    provider text,
    endpoint_id text,
    status integer NOT NULL,
    latency_ms double precision NOT NULL,
    input_tokens integer,
    output_tokens integer,
    cost double precision,
    methods jsonb,
    question_count integer NOT NULL,
    request jsonb,
    response jsonb,
    set_id text,
    label text,
    routing jsonb
  );
  CREATE INDEX decisions_by_time ON decisions (created_at);
  CREATE INDEX decisions_by_session ON decisions (session_id);
  CREATE INDEX decisions_by_key ON decisions (key_id);
  `,
  },
];
