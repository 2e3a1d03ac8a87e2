import type { ProviderKeyDates } from '../ports';
import type { Store } from './database';

/** When each provider's key was set (`provider_key_meta`) in the SQLite file. */
export class SqliteProviderKeyDates implements ProviderKeyDates {
  constructor(private readonly store: Store) {}

  async get(provider: string): Promise<string | undefined> {
    return this.store.get<{ updated_at: string }>('SELECT updated_at FROM provider_key_meta WHERE provider = ?', [provider])?.updated_at;
  }

  async set(provider: string, at: string): Promise<void> {
    this.store.run('INSERT INTO provider_key_meta (provider, updated_at) VALUES (?, ?) ON CONFLICT(provider) DO UPDATE SET updated_at = excluded.updated_at', [
      provider,
      at,
    ]);
  }

  async remove(provider: string): Promise<void> {
    this.store.run('DELETE FROM provider_key_meta WHERE provider = ?', [provider]);
  }
}
