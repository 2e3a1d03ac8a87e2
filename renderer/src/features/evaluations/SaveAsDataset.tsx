import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { call } from '../../transport/transport';
import { clickOnce } from '../../lib/send-once';
import { ErrorNotice } from '../../ui/components';
import { setsQuery } from '../question-sets';
import { evalKeys } from './api';
import { SetSelect } from './SetSelect';

/** "Save as dataset" from work already done: a set's past runs (answers become expected answers, to review) or the box reviews. */
export function SaveAsDataset({ onSaved }: { onSaved: (id: string) => void }) {
  const queryClient = useQueryClient();
  const sets = useQuery(setsQuery());
  const [setId, setSetId] = useState('');
  const [question, setQuestion] = useState('box');
  const held = useRef(false); // a double click saves one dataset
  // Picked once the list holds it (read again first), so nothing falls back to another dataset meanwhile.
  const done = async (d: { id: string }) => {
    await queryClient.invalidateQueries({ queryKey: evalKeys.datasets });
    onSaved(d.id);
  };
  const fromRuns = useMutation({
    mutationFn: async () => {
      const set = sets.data?.find((s) => s.id === setId) ?? sets.data?.[0];
      if (!set) throw new Error('No question set to take runs from');
      const runs = await call('runs.list', { set_id: set.id, status: 'done', limit: 500 });
      if (runs.length === 0) throw new Error(`No finished runs of “${set.name}” yet`);
      return call('datasets.fromRuns', { name: `${set.name.slice(0, 193)}: runs`, run_ids: runs.map((r) => r.id) });
    },
    onSuccess: done,
  });
  // The same copy as Boxes' "Copy into a dataset": truth by question, verdicts and notes kept.
  const fromBoxes = useMutation({ mutationFn: () => call('boxReview.fromLegacy', { name: 'Box reviews', question }), onSuccess: done });
  return (
    <details className="save-as-dataset">
      <summary>Save existing work as a dataset</summary>
      <p className="muted small">
        A question set&apos;s finished runs: one item per run, its answers as the expected answers (review them before testing against them).
      </p>
      <div className="toolbar">
        <SetSelect sets={sets.data} value={setId} onChange={setSetId} label="Question set whose runs to save" />
        <button type="button" className="secondary" onClick={clickOnce(held, () => fromRuns.mutateAsync())} disabled={fromRuns.isPending}>
          Save its runs as a dataset
        </button>
      </div>
      <p className="muted small">Box reviews made before datasets: one item per image, its truth box as the expected answer of this box question.</p>
      <div className="toolbar">
        <label className="inline-check">
          Box question name
          <input value={question} onChange={(e) => setQuestion(e.target.value)} maxLength={200} />
        </label>
        <button
          type="button"
          className="secondary"
          onClick={clickOnce(held, () => fromBoxes.mutateAsync())}
          disabled={fromBoxes.isPending || question.trim() === ''}
        >
          Save box reviews as a dataset
        </button>
      </div>
      {fromRuns.error ? <ErrorNotice error={fromRuns.error} title="Not saved" /> : null}
      {fromBoxes.error ? <ErrorNotice error={fromBoxes.error} title="Not saved" /> : null}
    </details>
  );
}
