// The cascade-presets domain's storage. Implemented by store/sqlite and store/postgres; gathered into Storage by store/ports.ts.

/**
 * A named cascade as stored: where a request goes when `when` holds on the first model's answers.
 * `when` is what was saved, checked again by the domain when read.
 */
export interface StoredCascadePreset {
  name: string;
  /** The model asked again when the condition holds. */
  model: string;
  /** The model asked first, when the preset names one (else the request's own model is). */
  first_model: string | null;
  when: unknown;
  /** Where the threshold came from (a run, its models and what the curve said there), or null. */
  source: unknown;
  created_at: string;
  updated_at: string;
}

/** The cascade presets' storage: one preset per name. */
export interface CascadePresetStorage {
  /** Every preset, by name. */
  list(): Promise<StoredCascadePreset[]>;
  get(name: string): Promise<StoredCascadePreset | undefined>;
  /** Adds the preset, or replaces the one of that name (keeping when it was created). */
  put(preset: StoredCascadePreset): Promise<void>;
  /** Removes the preset of that name; whether there was one. */
  remove(name: string): Promise<boolean>;
}
