import { isoTime, type Clock } from '../clock';
import type { Store } from '../store/database';
import type { SecretStore } from './secret-store';

const secretName = (provider: string): string => `provider:${provider}`;

export interface ProviderKeyState {
  provider: string;
  key_set: boolean;
  key_updated_at: string | null;
}

/** Provider keys: written from the UI, read only by the core when it calls that provider. */
export class ProviderKeys {
  constructor(
    private readonly secrets: SecretStore,
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  async state(provider: string): Promise<ProviderKeyState> {
    const keySet = await this.secrets.has(secretName(provider));
    const meta = this.store.get<{ updated_at: string }>('SELECT updated_at FROM provider_key_meta WHERE provider = ?', [provider]);
    return { provider, key_set: keySet, key_updated_at: keySet ? (meta?.updated_at ?? null) : null };
  }

  async set(provider: string, key: string): Promise<ProviderKeyState> {
    await this.secrets.set(secretName(provider), key);
    const updatedAt = isoTime(this.clock);
    this.store.run(
      'INSERT INTO provider_key_meta (provider, updated_at) VALUES (?, ?) ON CONFLICT(provider) DO UPDATE SET updated_at = excluded.updated_at',
      [provider, updatedAt],
    );
    return { provider, key_set: true, key_updated_at: updatedAt };
  }

  async clear(provider: string): Promise<ProviderKeyState> {
    await this.secrets.delete(secretName(provider));
    this.store.run('DELETE FROM provider_key_meta WHERE provider = ?', [provider]);
    return { provider, key_set: false, key_updated_at: null };
  }

  /** For the core's provider adapters only; never exposed through an operation. */
  reveal(provider: string): Promise<string | undefined> {
    return this.secrets.get(secretName(provider));
  }
}
