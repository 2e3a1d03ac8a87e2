import type { ModelSummary } from '../../../../shared/schemas/inspector';
import { ModelCheck } from '../../ui/ModelCheck';

/**
 * The other models to run the set on, as a list of checkboxes opened above the grid (a multiple
 * select needed Ctrl-click for a second model); a model that needs a provider key says so.
 */
export function CompareModels({
  models,
  model,
  compareWith,
  onCompareWith,
}: {
  models: ModelSummary[] | undefined;
  /** The set's own model, always run, so not offered. */
  model: string;
  compareWith: string[];
  onCompareWith: (models: string[]) => void;
}) {
  const others = (models ?? []).filter((m) => m.id !== model);
  return (
    <details className="compare-models">
      <summary>Also run on{compareWith.length > 0 ? ` (${compareWith.length})` : ''}</summary>
      <fieldset className="compare-models-list">
        <legend className="visually-hidden">Also run on</legend>
        {others.map((m) => (
          <ModelCheck key={m.id} model={m} chosen={compareWith} onChosen={onCompareWith}>
            {m.callable_endpoints === 0 ? <span className="small muted"> needs a provider key</span> : null}
          </ModelCheck>
        ))}
      </fieldset>
    </details>
  );
}
