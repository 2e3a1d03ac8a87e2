import type { ModelSummary } from '../../../../shared/schemas/inspector';
import { kindTag, modelKind } from '../../lib/answering';
import { StickyBar } from '../../ui/StickyBar';
import type { Built } from './draft';

interface Props {
  /** The draft differs from the saved version. */
  dirty: boolean;
  onDiscard: () => void;
  built: Built;
  /** None of the problems is shown yet (a new, blank set). */
  noProblemShown: boolean;
  models: ModelSummary[] | undefined;
  /** The set's own model, which is always run. */
  model: string;
  compareWith: string[];
  onCompareWith: (models: string[]) => void;
  saving: boolean;
  onSave: () => void;
  onRun: () => void;
}

/** Kept in view at the bottom: whether there are unsaved changes, whether the request is valid, the models to run it on, Save and Run. */
export function SetActionBar({ dirty, onDiscard, built, noProblemShown, models, model, compareWith, onCompareWith, saving, onSave, onRun }: Props) {
  return (
    <StickyBar className="action-bar">
      {dirty ? (
        <span className="draft-state" role="note">
          <span className="badge badge-sim">unsaved changes</span> kept as a draft
          <button type="button" className="secondary" onClick={onDiscard}>
            Discard changes
          </button>
        </span>
      ) : null}
      <span
        className={built.valid ? 'badge badge-ok' : 'badge'}
        role="status"
        title={
          !built.valid && built.savable ? 'Content is needed to run the set here; a set used over a dataset in Evaluations takes it from each item' : undefined
        }
      >
        {built.valid
          ? 'valid request'
          : built.savable
            ? 'no content: can be saved, not run'
            : noProblemShown
              ? 'new set: write content and a question'
              : `${built.problems.length} problem${built.problems.length === 1 ? '' : 's'}`}
      </span>
      <label htmlFor="compare-models">Also run on</label>
      <select id="compare-models" multiple size={2} value={compareWith} onChange={(e) => onCompareWith([...e.target.selectedOptions].map((o) => o.value))}>
        {(models ?? [])
          .filter((m) => m.id !== model)
          .map((m) => (
            <option key={m.id} value={m.id} title={modelKind(m)}>
              {m.id} ({kindTag(m)})
            </option>
          ))}
      </select>
      <button type="button" className="secondary" disabled={saving} onClick={onSave}>
        {saving ? 'Saving…' : 'Save'}
      </button>
      <button type="button" disabled={!built.valid} onClick={onRun} title="Tries the set here on its content and examples, on each model chosen">
        {compareWith.length > 0 ? `Run on ${compareWith.length + 1} models` : 'Run'}
      </button>
    </StickyBar>
  );
}
