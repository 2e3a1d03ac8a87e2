import type { SettingsStorage } from '../ports';
import { SqliteChangeToken } from './change-token';
import type { Store } from './database';

/** The settings domain's table (`settings`: one row a setting, its value as JSON) in the SQLite file. */
export class SqliteSettingsStore implements SettingsStorage {
  private readonly token: SqliteChangeToken;

  constructor(private readonly store: Store) {
    this.token = new SqliteChangeToken(store);
  }

  async all(): Promise<Record<string, unknown>> {
    const values: Record<string, unknown> = {};
    for (const row of this.store.all<{ key: string; value: string }>('SELECT key, value FROM settings')) {
      try {
        values[row.key] = JSON.parse(row.value);
      } catch {
        // A damaged value is left out (its default applies); the row stays as it is for inspection.
      }
    }
    return values;
  }

  async put(values: Record<string, unknown>): Promise<void> {
    this.store.transaction(() => {
      for (const [key, value] of Object.entries(values)) {
        this.store.run('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value', [key, JSON.stringify(value)]);
      }
    });
    this.token.moved();
  }

  changeToken(): number {
    return this.token.read();
  }
}
