/**
 * The SQLite schema: every domain's steps (the files beside this one) in version order, checked at
 * start that no two share a version and none is missing; `PRAGMA user_version` records how many ran
 * (database.ts applies them). Never edit a released step: add one, with the next version, in its
 * domain's file (shared.ts when it truly spans domains).
 */
import { inVersionOrder } from '../../migration-order';
import { STEPS as audit } from './audit';
import { STEPS as boxes } from './boxes';
import { STEPS as captures } from './captures';
import { STEPS as cascades } from './cascades';
import { STEPS as decisions } from './decisions';
import { STEPS as evaluations } from './evaluations';
import { STEPS as keys } from './keys';
import { STEPS as metrics } from './metrics';
import { STEPS as refusals } from './refusals';
import { STEPS as reviews } from './reviews';
import { STEPS as shared } from './shared';

export const MIGRATIONS: readonly string[] = inVersionOrder('SQLite', {
  shared,
  keys,
  metrics,
  decisions,
  boxes,
  refusals,
  evaluations,
  audit,
  cascades,
  captures,
  reviews,
});
