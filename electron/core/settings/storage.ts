// The settings domain's storage. Implemented by store/sqlite and store/postgres; gathered into Storage by store/ports.ts.

/** The settings domain's storage: each setting by name, as the value it was given. */
export interface SettingsStorage {
  /** Every stored setting; one whose stored value cannot be read back is left out (and left stored). */
  all(): Promise<Record<string, unknown>>;
  /** Stores these settings together: all of them or, on failure, none. */
  put(values: Record<string, unknown>): Promise<void>;
  /** Moves whenever settings change in any process. */
  changeToken(): number;
}
