import type { EvaluationStorage } from '../ports';
import type { Store } from './database';
import { SqliteCalibrationStore } from './calibration-store';
import { SqliteEvalResultStore } from './eval-result-store';
import { SqliteEvalRunStore } from './eval-run-store';
import { SqliteEvalWorkStore } from './eval-work-store';

/** The evaluations domain's four ports on the SQLite file. */
export function sqliteEvaluationStorage(store: Store): EvaluationStorage {
  return {
    evalRuns: new SqliteEvalRunStore(store),
    evalResults: new SqliteEvalResultStore(store),
    evalWork: new SqliteEvalWorkStore(store),
    calibrations: new SqliteCalibrationStore(store),
  };
}
