import type { CalibrationStorage, StoredCalibration } from '../ports';
import type { Store } from './database';
import { calibrationValues } from '../eval-rows';

/** Saved calibrations (`calibrations`) in the SQLite file. */
export class SqliteCalibrationStore implements CalibrationStorage {
  constructor(private readonly store: Store) {}

  async saveCalibration(c: StoredCalibration): Promise<void> {
    this.store.run('INSERT OR REPLACE INTO calibrations (set_key, model, question, temperature, created_at) VALUES (?, ?, ?, ?, ?)', calibrationValues(c));
  }

  async calibrations(of?: { set_key: string; model: string }): Promise<StoredCalibration[]> {
    if (of) return this.store.all<StoredCalibration>('SELECT * FROM calibrations WHERE set_key = ? AND model = ? ORDER BY question', [of.set_key, of.model]);
    return this.store.all<StoredCalibration>('SELECT * FROM calibrations ORDER BY created_at DESC');
  }

  async deleteCalibration(key: { set_key: string; model: string; question: string }): Promise<number> {
    return this.store.run('DELETE FROM calibrations WHERE set_key = ? AND model = ? AND question = ?', [key.set_key, key.model, key.question]).changes;
  }
}
