import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { settingsQuery } from '../settings';
import { ErrorNotice } from '../../ui/components';
import { useReviewBlind } from './api';
import type { ReviewSource } from './use-review-source';

/** The dataset reviewed, the question set for items not captured with their questions, and whether the model's answer waits. */
export function ReviewSourceBar({ source, asksForSet, onBlindChanged }: { source: ReviewSource; asksForSet: boolean; onBlindChanged: () => void }) {
  const settings = useQuery(settingsQuery());
  const blind = useReviewBlind(onBlindChanged);
  // Held from the click itself until saved: the mutation's pending state comes a tick later, and a
  // controlled checkbox would flick back to the old value in between.
  const [asked, setAsked] = useState<boolean | null>(null);
  const checked = asked ?? settings.data?.review_blind ?? true;
  const change = (value: boolean) => {
    setAsked(value);
    blind.mutate(value, { onSettled: () => setAsked(null) });
  };
  return (
    <div className="toolbar review-source">
      <label htmlFor="review-dataset">Dataset</label>
      <select id="review-dataset" value={source.datasetId ?? ''} onChange={(e) => source.setDataset(e.target.value || null)}>
        {source.datasetId === null ? <option value="">No dataset</option> : null}
        {(source.datasets.data ?? []).map((d) => (
          <option key={d.id} value={d.id}>
            {d.name} ({d.items} item{d.items === 1 ? '' : 's'})
          </option>
        ))}
      </select>
      <label htmlFor="review-question-set">Question set</label>
      <select
        id="review-question-set"
        aria-describedby="review-question-set-help"
        aria-invalid={asksForSet || undefined}
        value={source.questionSetId ?? ''}
        onChange={(e) => source.setQuestionSet(e.target.value || null)}
      >
        <option value="">None: each item&apos;s captured questions</option>
        {(source.sets.data ?? []).map((s) => (
          <option key={s.id} value={s.id}>
            {s.name}
          </option>
        ))}
      </select>
      <span id="review-question-set-help" className={asksForSet ? 'small text-error' : 'muted small'}>
        {asksForSet ? 'These items were not captured with their questions: choose the set to ask them with.' : 'Needed for items that were not captured.'}
      </span>
      <label className="inline-check">
        <input type="checkbox" checked={checked} disabled={!settings.data} onChange={(e) => change(e.target.checked)} />
        Show the model&apos;s answer only after mine
      </label>
      {blind.error ? <ErrorNotice error={blind.error} title="Setting not saved" /> : null}
    </div>
  );
}
