import type { EvaluationStorage } from '../ports';
import { PgChangeToken } from './change-token';
import type { PgDatabase } from './database';
import { PgCalibrationStore } from './calibration-store';
import { PgEvalResultStore } from './eval-result-store';
import { PgEvalRunStore } from './eval-run-store';
import { PgEvalWorkStore } from './eval-work-store';
import { CHANNELS } from './migrations';

/** The evaluations domain's four ports on Postgres; the results' change token is moved by the writes of the three that change results. */
export async function pgEvaluationStorage(db: PgDatabase): Promise<EvaluationStorage> {
  const token = await PgChangeToken.on(db, CHANNELS.results);
  return {
    evalRuns: new PgEvalRunStore(db, token),
    evalResults: new PgEvalResultStore(db, token),
    evalWork: new PgEvalWorkStore(db, token),
    calibrations: new PgCalibrationStore(db),
  };
}
