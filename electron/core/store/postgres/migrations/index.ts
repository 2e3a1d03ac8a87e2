/**
 * The Postgres schema: every domain's steps (the files beside this one) in version order, checked at
 * start that no two share a version and none is missing; applied in order at start (database.ts)
 * under a transaction-scoped advisory lock. Never edit a step that has shipped: add one, with the
 * next version, in its domain's file (shared.ts when it truly spans domains).
 *
 * Change notices: a statement-level trigger sends NOTIFY on the domain's channel when what the
 * request path keeps in memory changes; a transaction's notices are delivered once it commits.
 */
import { inVersionOrder } from '../../migration-order';
import { STEPS as audit } from './audit';
import { STEPS as captures } from './captures';
import { STEPS as cascades } from './cascades';
import { STEPS as decisions } from './decisions';
import { STEPS as evaluations } from './evaluations';
import { STEPS as keys } from './keys';
import { STEPS as metrics } from './metrics';
import { STEPS as presence } from './presence';
import { STEPS as questionSets } from './question-sets';
import { STEPS as reviews } from './reviews';
import { STEPS as shared } from './shared';

export const PG_MIGRATIONS: readonly string[] = inVersionOrder('Postgres', {
  shared,
  keys,
  metrics,
  'question-sets': questionSets,
  decisions,
  evaluations,
  audit,
  presence,
  cascades,
  captures,
  reviews,
});

/** The channels the schema notifies on, by domain. */
export const CHANNELS = {
  keys: 'verdict_keys',
  settings: 'verdict_settings',
  refusals: 'verdict_refusals',
  items: 'verdict_items',
  results: 'verdict_results',
  /** a run was spread over the instances: its id */
  runs: 'verdict_runs',
} as const;
