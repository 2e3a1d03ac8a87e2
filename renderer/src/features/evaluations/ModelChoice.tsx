import type { ModelSummary } from '../../../../shared/schemas/inspector';
import { ModelCheck } from '../../ui/ModelCheck';

/** The models to run, as checkboxes: those that can be called first, then those that need a provider key, folded. */
export function ModelChoice({ models, chosen, onChosen }: { models: ModelSummary[]; chosen: string[]; onChosen: (ids: string[]) => void }) {
  const check = (m: ModelSummary) => <ModelCheck key={m.id} model={m} chosen={chosen} onChosen={onChosen} />;
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
