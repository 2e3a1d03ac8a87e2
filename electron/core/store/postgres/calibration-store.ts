import type { CalibrationStorage, StoredCalibration } from '../ports';
import type { PgDatabase } from './database';
import { calibrationValues } from '../eval-rows';

/** Saved calibrations (`calibrations`) in Postgres. */
export class PgCalibrationStore implements CalibrationStorage {
  constructor(private readonly db: PgDatabase) {}

  async saveCalibration(c: StoredCalibration): Promise<void> {
    await this.db.query(
      `INSERT INTO calibrations (set_key, model, question, temperature, created_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (set_key, model, question) DO UPDATE SET temperature = excluded.temperature, created_at = excluded.created_at`,
      calibrationValues(c),
    );
  }

  async calibrations(of?: { set_key: string; model: string }): Promise<StoredCalibration[]> {
    const columns = 'SELECT set_key, model, question, temperature, created_at FROM calibrations';
    if (of) return this.db.query<StoredCalibration>(`${columns} WHERE set_key = $1 AND model = $2 ORDER BY question`, [of.set_key, of.model]);
    return this.db.query<StoredCalibration>(`${columns} ORDER BY created_at DESC, set_key, model, question`);
  }

  async deleteCalibration(key: { set_key: string; model: string; question: string }): Promise<number> {
    return (
      (await this.db.pool.query('DELETE FROM calibrations WHERE set_key = $1 AND model = $2 AND question = $3', [key.set_key, key.model, key.question]))
        .rowCount ?? 0
    );
  }
}
