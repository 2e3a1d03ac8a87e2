import { summarizeIssues } from '../../../../shared/contract/result';
import type { CascadeCondition } from '../../../../shared/schemas/cascade';
import type { CascadePreset } from '../../../../shared/schemas/cascade-preset';
import { ProviderPreferencesSchema } from '../../../../shared/schemas/provider-preferences';

/** The run form's variants, as evals.estimate and evals.start take them. */
export type Variant = { model: string; label?: string; provider?: Record<string, unknown>; cascade?: { model: string; when: CascadeCondition } };

/**
 * A saved cascade preset offered as a variant. A preset saved from a run's curve names its first
 * model (its threshold was read on that model's answers), and is offered as it is; one that names
 * none (saved through the API) is offered with a choice of the first model, which must be made before
 * it can be ticked: a cascade run always says which model answers first.
 */
export function presetVariant(preset: CascadePreset, first: string | undefined): Variant | null {
  const model = preset.first_model ?? first;
  return model ? { model, label: preset.name, cascade: { model: preset.model, when: preset.when } } : null;
}

/** Several models, or one model under each line's provider preferences. */
export function variantsOf(models: string[], preferences: string, cascades: Variant[] = []): Variant[] {
  // Each non-blank line with its number as the user sees it.
  const lines = preferences.split('\n').flatMap((text, i) => (text.trim() ? [{ text: text.trim(), number: i + 1 }] : []));
  if (lines.length === 0) return [...models.map((model) => ({ model })), ...cascades];
  if (models.length !== 1 || cascades.length > 0)
    throw new Error(
      "Provider preferences per line compare one model: choose exactly one, and no cascade preset (the question set's preferences apply to a cascade)",
    );
  return lines.map(({ text, number }, i) => {
    let parsed: { label?: string; provider?: Record<string, unknown> };
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      throw new Error(`Provider preferences, line ${number}: not valid JSON`);
    }
    // {"label": ..., "provider": {...}}, or the preferences themselves with an optional label beside them.
    const { label: _label, ...bare } = parsed;
    const provider = parsed.provider ?? (bare as Record<string, unknown>);
    // Checked here, so the problem is named by its line rather than as variants[i] by the core.
    const checked = ProviderPreferencesSchema.safeParse(provider);
    if (!checked.success) throw new Error(`Provider preferences, line ${number}: ${summarizeIssues(checked.error)}`);
    return { model: models[0]!, label: parsed.label ?? `preferences ${i + 1}`, provider };
  });
}
