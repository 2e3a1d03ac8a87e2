import type { ProviderKeyDates } from '../ports';
import type { PgDatabase } from './database';

/** When each provider's key was set, in Postgres. */
export class PgProviderKeyDates implements ProviderKeyDates {
  constructor(private readonly db: PgDatabase) {}

  async get(provider: string): Promise<string | undefined> {
    return (await this.db.query<{ updated_at: string }>('SELECT updated_at FROM provider_key_meta WHERE provider = $1', [provider]))[0]?.updated_at;
  }

  async set(provider: string, at: string): Promise<void> {
    await this.db.query(
      'INSERT INTO provider_key_meta (provider, updated_at) VALUES ($1, $2) ON CONFLICT (provider) DO UPDATE SET updated_at = excluded.updated_at',
      [provider, at],
    );
  }

  async remove(provider: string): Promise<void> {
    await this.db.query('DELETE FROM provider_key_meta WHERE provider = $1', [provider]);
  }
}
