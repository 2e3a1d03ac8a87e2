import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { call } from '../../transport/transport';
import { clickOnce } from '../../lib/send-once';
import { ErrorNotice } from '../../ui/components';
import { evalKeys } from '../evaluations';
import { boxItemsQuery, imageDatasetsQuery, LEGACY } from './api';

/** The picker's value for the images added to Boxes before it kept them as datasets. */
export const LEGACY_ID = 'legacy';

/**
 * Which dataset Boxes reviews: any dataset whose items are images (made here from a folder, or
 * imported in Evaluations), or the images added here before datasets, while there are any.
 */
export function DatasetPicker({ value, onChange }: { value: string | null; onChange: (id: string | null) => void }) {
  const datasets = useQuery(imageDatasetsQuery());
  const legacy = useQuery(boxItemsQuery(LEGACY));
  const count = legacy.data?.length ?? 0;
  const known = value === LEGACY_ID ? count > 0 : datasets.data?.some((d) => d.id === value);
  useEffect(() => {
    // A dataset deleted since (or none chosen yet): open the newest one, else the earlier images.
    // Not while the list is being fetched again: a dataset just made is not in the old list yet.
    if (!datasets.data || !legacy.data || known || datasets.isFetching || legacy.isFetching) return;
    const next = datasets.data[0]?.id ?? (count > 0 ? LEGACY_ID : null);
    if (next !== value) onChange(next);
  }, [datasets.data, legacy.data, datasets.isFetching, legacy.isFetching, known, count, value, onChange]);
  return (
    <>
      <label htmlFor="box-dataset">Dataset</label>
      <select id="box-dataset" value={value ?? ''} onChange={(e) => onChange(e.target.value || null)}>
        {value === null ? <option value="">No dataset</option> : null}
        {(datasets.data ?? []).map((d) => (
          <option key={d.id} value={d.id}>
            {d.name} ({d.items} image{d.items === 1 ? '' : 's'})
          </option>
        ))}
        {count > 0 ? <option value={LEGACY_ID}>Images added before datasets ({count})</option> : null}
      </select>
    </>
  );
}

/** Says what the earlier images are, and copies them into a dataset (truth, verdicts and notes kept). */
export function LegacyNotice({ onCopied }: { onCopied: (id: string) => void }) {
  const queryClient = useQueryClient();
  const held = useRef(false); // a double click copies once
  const copy = useMutation({
    mutationFn: () => call('boxReview.fromLegacy', { name: `Box review ${new Date().toISOString().slice(0, 16).replace('T', ' ')}` }),
    onSuccess: async (dataset) => {
      await Promise.all([queryClient.invalidateQueries({ queryKey: ['boxes', 'datasets'] }), queryClient.invalidateQueries({ queryKey: evalKeys.datasets })]);
      onCopied(dataset.id);
    },
  });
  return (
    <div className="toolbar">
      <span className="small">
        These images were added to Boxes before it kept images as datasets. Copy them into a dataset to run evaluations over them (truth, verdicts and notes
        come along; these stay as they are).
      </span>
      <button type="button" className="secondary" disabled={copy.isPending} onClick={clickOnce(held, () => copy.mutateAsync())}>
        Copy into a dataset
      </button>
      {copy.error ? <ErrorNotice error={copy.error} title="Not copied" /> : null}
    </div>
  );
}
