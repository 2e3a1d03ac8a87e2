import type { SettingsStorage } from '../ports';
import { PgChangeToken } from './change-token';
import type { PgDatabase } from './database';
import { CHANNELS } from './migrations';
import { PgWatchedStore } from './watched-store';

/** The settings domain's table in Postgres (values as jsonb). */
export class PgSettingsStore extends PgWatchedStore implements SettingsStorage {
  static async open(db: PgDatabase): Promise<PgSettingsStore> {
    return new PgSettingsStore(db, await PgChangeToken.on(db, CHANNELS.settings));
  }

  async all(): Promise<Record<string, unknown>> {
    const rows = await this.db.query<{ key: string; value: unknown }>('SELECT key, value FROM settings');
    return Object.fromEntries(rows.map((r) => [r.key, r.value]));
  }

  async put(values: Record<string, unknown>): Promise<void> {
    const entries = Object.entries(values);
    if (entries.length === 0) return;
    // One statement: all of them or none.
    await this.db.query(
      'INSERT INTO settings (key, value) SELECT * FROM unnest($1::text[], $2::jsonb[]) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      [entries.map(([key]) => key), entries.map(([, value]) => JSON.stringify(value))],
    );
    this.token.moved();
  }
}
