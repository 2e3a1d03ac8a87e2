import { isoTime, type Clock } from '../clock';
import type { ProviderKeyDates } from '../store/ports';
import { BUNDLED_PROVIDERS } from '../catalog/bundled-providers';
import { decodeBoundKey, encodeBoundKey, keyRefusal, originOf, type BoundKey } from './bound-key';
import type { SecretStore } from './secret-store';

const secretName = (provider: string): string => `provider:${provider}`;

export interface ProviderKeyState {
  provider: string;
  key_set: boolean;
  key_updated_at: string | null;
  /** The address the key was entered for; it is sent nowhere else. */
  key_origin: string | null;
}

/** A key to send, a reason it is not sent, or none stored. */
export type KeyLookup = { key: string } | { refused: string } | null;

/**
 * Provider keys: written from the UI, read only by the core when it calls that provider, and only
 * for calls to the origin each key was entered for.
 */
export class ProviderKeys {
  constructor(
    private readonly secrets: SecretStore,
    private readonly dates: ProviderKeyDates,
    private readonly clock: Clock,
    /** Where the provider points now (its base URL in the catalog). */
    private readonly baseUrlOf: (provider: string) => string | undefined,
  ) {}

  async state(provider: string): Promise<ProviderKeyState> {
    const bound = await this.bound(provider);
    const updatedAt = bound ? await this.dates.get(provider) : undefined;
    return { provider, key_set: bound !== undefined, key_updated_at: updatedAt ?? null, key_origin: bound?.origin ?? null };
  }

  /** Stores a key bound to the address the provider points at now. */
  async set(provider: string, key: string): Promise<ProviderKeyState> {
    const url = this.baseUrlOf(provider);
    const origin = url ? originOf(url) : null;
    if (!origin) throw new Error(`${provider} has no valid base URL to bind its key to`);
    await this.secrets.set(secretName(provider), encodeBoundKey(key, origin));
    const updatedAt = isoTime(this.clock);
    await this.dates.set(provider, updatedAt);
    return { provider, key_set: true, key_updated_at: updatedAt, key_origin: origin };
  }

  async clear(provider: string): Promise<ProviderKeyState> {
    await this.secrets.delete(secretName(provider));
    await this.dates.remove(provider);
    return { provider, key_set: false, key_updated_at: null, key_origin: null };
  }

  /**
   * For the core's provider calls only; never exposed through an operation. The key leaves only
   * for `baseUrl`'s origin; for any other the answer says why not.
   */
  async keyFor(provider: string, baseUrl: string, displayName: string): Promise<KeyLookup> {
    const bound = await this.bound(provider);
    if (!bound) return null;
    const refusal = keyRefusal(displayName, bound.origin, baseUrl);
    return refusal ? { refused: refusal } : { key: bound.key };
  }

  /**
   * The stored key and its origin. A key stored before keys were bound is bound now: to the bundled
   * provider's own address when it is one, else to where the provider points today.
   */
  private async bound(provider: string): Promise<(BoundKey & { origin: string }) | undefined> {
    const stored = await this.secrets.get(secretName(provider));
    if (stored === undefined) return undefined;
    const decoded = decodeBoundKey(stored);
    if (decoded.origin !== null) return { key: decoded.key, origin: decoded.origin };
    const url = BUNDLED_PROVIDERS.find((p) => p.slug === provider)?.baseUrl ?? this.baseUrlOf(provider);
    const origin = url ? originOf(url) : null;
    if (!origin) return undefined;
    await this.secrets.set(secretName(provider), encodeBoundKey(decoded.key, origin));
    return { key: decoded.key, origin };
  }
}
