import type { CascadePreset } from '../../../../shared/schemas/cascade-preset';
import type { ModelSummary } from '../../../../shared/schemas/inspector';
import { describeCascade, describeCondition } from '../../../../shared/cascade/describe';
import { formatUsd } from '../../../../shared/money/format-usd';

interface Props {
  presets: CascadePreset[];
  /** Ticked presets, by name. */
  chosen: string[];
  onChosen: (names: string[]) => void;
  /** The first model chosen for each preset that names none. */
  firstFor: Record<string, string>;
  onFirstFor: (firstFor: Record<string, string>) => void;
  /** Models a preset's first stage can be given. */
  callable: ModelSummary[];
}

/** Saved cascade presets, each a variant of the run; one without a first model of its own is ticked once one is chosen. */
export function PresetChoice({ presets, chosen, onChosen, firstFor, onFirstFor, callable }: Props) {
  return (
    <fieldset className="model-choice preset-choice" aria-label="Cascade presets">
      <legend>Cascade presets</legend>
      <p className="small muted">
        Each a variant: the first model answers every item, and where the condition holds on its answers the second answers it again (both billed).
      </p>
      {presets.map((p) => {
        const first = p.first_model ?? firstFor[p.name];
        const text = describeCascade(first ?? null, p.model, p.when);
        return (
          <div key={p.name} className="preset-check">
            <label className="inline-check" title={`Preset “${p.name}”`}>
              <input
                type="checkbox"
                aria-label={`${p.name}: ${text}`}
                disabled={first === undefined}
                checked={first !== undefined && chosen.includes(p.name)}
                onChange={(e) => onChosen(e.target.checked ? [...chosen, p.name] : chosen.filter((c) => c !== p.name))}
              />
              <span>
                <strong>{p.name}</strong>: <span className="mono small">{`${first ?? 'a first model'} → ${p.model}`}</span>, when {describeCondition(p.when)}
              </span>
            </label>
            {p.first_model === null ? (
              <span className="preset-first small">
                first model:
                <select
                  value={firstFor[p.name] ?? ''}
                  aria-label={`First model for ${p.name}`}
                  onChange={(e) => onFirstFor({ ...firstFor, [p.name]: e.target.value })}
                >
                  <option value="" disabled>
                    which model answers first?
                  </option>
                  {callable.map((m) => (
                    <option key={m.id} value={m.id}>
                      {m.id}
                    </option>
                  ))}
                </select>
              </span>
            ) : null}
            {p.source ? (
              <span className="small muted preset-source" data-testid="preset-source">
                {' '}
                on its curve: {p.source.accuracy === null ? 'metric unknown' : `${(p.source.accuracy * 100).toFixed(1)}%`} at{' '}
                {formatUsd(p.source.cost_per_item)} per item, {(p.source.escalated * 100).toFixed(1)}% escalated
              </span>
            ) : null}
          </div>
        );
      })}
    </fieldset>
  );
}
