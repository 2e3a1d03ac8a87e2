import { useState } from 'react';
import type { DecisionsRequest } from '../../../../shared/schemas/decisions-request';
import { ErrorNotice } from '../../ui/components';
import { useSaveExamplesAsDataset } from './api';
import { examplesAsJsonl, type Example } from './examples';

interface Props {
  setName: string;
  /** the examples written so far (the set's own content is not one) */
  examples: Example[];
  /** the set as it would be sent; null while it has problems */
  request: DecisionsRequest | null;
  canAdd: boolean;
  onAdd: () => void;
}

/** Adding an example, and saving the examples with their expected answers as a dataset to evaluate on. */
export function TrySaveBar({ setName, examples, request, canAdd, onAdd }: Props) {
  const [datasetName, setDatasetName] = useState('');
  const saveDataset = useSaveExamplesAsDataset();
  const saveAsDataset = () =>
    saveDataset.mutate({
      name: datasetName.trim() || `${setName} examples`,
      file: 'examples.jsonl',
      format: 'jsonl',
      content: examplesAsJsonl(examples, request!.questions),
      questions: request!.questions,
    });
  return (
    <>
      <div className="toolbar">
        <button type="button" className="secondary" disabled={!canAdd} onClick={onAdd}>
          Add an example
        </button>
        <label className="small">
          Save the examples as a dataset
          <input
            value={datasetName}
            onChange={(e) => setDatasetName(e.target.value)}
            placeholder={`${setName} examples`}
            maxLength={200}
            aria-label="Dataset name"
          />
        </label>
        <button
          type="button"
          className="secondary"
          disabled={!request || examples.filter((e) => e.text.trim()).length === 0 || saveDataset.isPending}
          onClick={saveAsDataset}
        >
          Save as dataset
        </button>
        {saveDataset.data?.dataset ? (
          <span className="small" role="status">
            Saved {saveDataset.data.imported} items: <a href="#/evaluations">evaluate them in Evaluations</a>
          </span>
        ) : null}
      </div>
      {saveDataset.data && !saveDataset.data.dataset ? (
        <ErrorNotice error={new Error(saveDataset.data.problems.map((p) => `${p.field}: ${p.message}`).join('; '))} title="Not saved" />
      ) : null}
      {saveDataset.error ? <ErrorNotice error={saveDataset.error} title="Not saved" /> : null}
    </>
  );
}
