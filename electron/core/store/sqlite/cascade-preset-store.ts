import { presetValues } from '../cascade-preset-rows';
import type { CascadePresetStorage, StoredCascadePreset } from '../ports';
import type { Store } from './database';

interface Row {
  name: string;
  model: string;
  first_model: string | null;
  when_json: string;
  source: string | null;
  created_at: string;
  updated_at: string;
}

const toPreset = (r: Row): StoredCascadePreset => ({
  name: r.name,
  model: r.model,
  first_model: r.first_model,
  when: JSON.parse(r.when_json) as unknown,
  source: r.source === null ? null : (JSON.parse(r.source) as unknown),
  created_at: r.created_at,
  updated_at: r.updated_at,
});

/** The cascade presets' table (`cascade_presets`) in the SQLite file. */
export class SqliteCascadePresetStore implements CascadePresetStorage {
  constructor(private readonly store: Store) {}

  async list(): Promise<StoredCascadePreset[]> {
    return this.store.all<Row>('SELECT * FROM cascade_presets ORDER BY name').map(toPreset);
  }

  async get(name: string): Promise<StoredCascadePreset | undefined> {
    const row = this.store.get<Row>('SELECT * FROM cascade_presets WHERE name = ?', [name]);
    return row ? toPreset(row) : undefined;
  }

  async put(p: StoredCascadePreset): Promise<void> {
    this.store.run(
      `INSERT INTO cascade_presets (name, model, first_model, when_json, source, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET model = excluded.model, first_model = excluded.first_model, when_json = excluded.when_json,
         source = excluded.source, updated_at = excluded.updated_at`,
      presetValues(p),
    );
  }

  async remove(name: string): Promise<boolean> {
    return this.store.run('DELETE FROM cascade_presets WHERE name = ?', [name]).changes > 0;
  }
}
