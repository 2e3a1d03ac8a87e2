import { presetValues } from '../cascade-preset-rows';
import type { CascadePresetStorage, StoredCascadePreset } from '../ports';
import type { PgDatabase } from './database';

// pg returns each column as the port's preset has it (json parsed).
const COLUMNS = 'name, model, first_model, when_json AS "when", source, created_at, updated_at';

/** The cascade presets' table in Postgres (the condition as json: its text as written). */
export class PgCascadePresetStore implements CascadePresetStorage {
  constructor(private readonly db: PgDatabase) {}

  async list(): Promise<StoredCascadePreset[]> {
    return this.db.query<StoredCascadePreset>(`SELECT ${COLUMNS} FROM cascade_presets ORDER BY name COLLATE "C"`);
  }

  async get(name: string): Promise<StoredCascadePreset | undefined> {
    const [row] = await this.db.query<StoredCascadePreset>(`SELECT ${COLUMNS} FROM cascade_presets WHERE name = $1`, [name]);
    return row;
  }

  async put(p: StoredCascadePreset): Promise<void> {
    await this.db.query(
      `INSERT INTO cascade_presets (name, model, first_model, when_json, source, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (name) DO UPDATE SET model = excluded.model, first_model = excluded.first_model, when_json = excluded.when_json,
         source = excluded.source, updated_at = excluded.updated_at`,
      presetValues(p),
    );
  }

  async remove(name: string): Promise<boolean> {
    return ((await this.db.pool.query('DELETE FROM cascade_presets WHERE name = $1', [name])).rowCount ?? 0) > 0;
  }
}
