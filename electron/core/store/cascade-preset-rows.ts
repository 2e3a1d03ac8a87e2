/** What the cascade presets' stores on both backends share: a preset's values as written (the condition and its source as JSON text). */
import type { StoredCascadePreset } from './ports';

/** A preset's values in the order of `INSERT INTO cascade_presets (name, model, first_model, when_json, source, created_at, updated_at)`. */
export const presetValues = (p: StoredCascadePreset): [string, string, string | null, string, string | null, string, string] => [
  p.name,
  p.model,
  p.first_model,
  JSON.stringify(p.when),
  p.source === null ? null : JSON.stringify(p.source),
  p.created_at,
  p.updated_at,
];
