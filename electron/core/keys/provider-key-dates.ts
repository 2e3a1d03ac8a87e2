// When provider keys were set (the keys themselves are in the secret store). Implemented by store/sqlite and store/postgres; gathered into Storage by store/ports.ts.

/** When each provider's key was last set (the key itself is in the secret store, never here). */
export interface ProviderKeyDates {
  get(provider: string): Promise<string | undefined>;
  set(provider: string, at: string): Promise<void>;
  remove(provider: string): Promise<void>;
}
