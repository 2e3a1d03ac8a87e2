/** Saved calibrations' storage: a temperature per question set, model and question. */

/** A saved calibration: a temperature per question set, model and question. */
export interface StoredCalibration {
  set_key: string;
  model: string;
  question: string;
  temperature: number;
  created_at: string;
}

/** Saved calibrations, kept apart from the runs they were fitted on. */
export interface CalibrationStorage {
  saveCalibration(calibration: StoredCalibration): Promise<void>;
  /** Saved calibrations, newest first; of one set and model when given, by question. */
  calibrations(of?: { set_key: string; model: string }): Promise<StoredCalibration[]>;
  deleteCalibration(key: { set_key: string; model: string; question: string }): Promise<number>;
}
