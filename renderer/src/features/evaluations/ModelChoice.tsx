import type { ModelSummary } from '../../../../shared/schemas/inspector';
import { kindTag, modelKind } from '../../lib/answering';

/** The models to run, as checkboxes: those that can be called first, then those that need a provider key, folded. */
export function ModelChoice({ models, chosen, onChosen }: { models: ModelSummary[]; chosen: string[]; onChosen: (ids: string[]) => void }) {
  const check = (m: ModelSummary) => (
    <label key={m.id} className="inline-check" title={modelKind(m)}>
      <input
        type="checkbox"
        aria-label={m.id}
        checked={chosen.includes(m.id)}
        onChange={(e) => onChosen(e.target.checked ? [...chosen, m.id] : chosen.filter((c) => c !== m.id))}
      />
      <span className="mono small">{m.id}</span> <span className={`model-kind model-kind-${m.answering}`}>{kindTag(m)}</span>
    </label>
  );
  const keyless = models.filter((m) => m.callable_endpoints === 0);
  return (
    <fieldset className="model-choice">
      <legend>Models</legend>
      {models.filter((m) => m.callable_endpoints > 0).map(check)}
      {keyless.length > 0 ? (
        <details className="keyless-models">
          <summary className="small muted">{keyless.length} more that need a provider key (Settings)</summary>
          {keyless.map(check)}
        </details>
      ) : null}
    </fieldset>
  );
}
