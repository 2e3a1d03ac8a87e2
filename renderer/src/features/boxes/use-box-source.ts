import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useStored } from '../../lib/use-stored';
import { evalRunsQuery } from '../evaluations';
import { boxItemsQuery, imageDatasetsQuery, itemsKey, LEGACY, type BoxSource } from './api';
import { LEGACY_ID } from './DatasetPicker';

/**
 * The images under review: the dataset chosen (kept across reloads) with the run and model whose
 * answers are shown, or the images added before Boxes kept datasets; their list in file-name order,
 * read again at each step of any run over the dataset.
 */
export function useBoxSource() {
  const queryClient = useQueryClient();
  const [datasetId, setDatasetId] = useStored<string | null>('verdict.boxes.dataset', null);
  const [answers, setAnswers] = useState<{ run_id: string | null; variant: number }>({ run_id: null, variant: 0 });
  const imageDatasets = useQuery(imageDatasetsQuery());
  // Exports are named after the dataset under review.
  const datasetName = datasetId === LEGACY_ID ? 'boxes' : (imageDatasets.data?.find((d) => d.id === datasetId)?.name ?? 'boxes');
  const source: BoxSource | null = datasetId === LEGACY_ID ? LEGACY : datasetId ? { kind: 'dataset', dataset_id: datasetId, ...answers } : null;
  const runs = useQuery(evalRunsQuery());
  const items = useQuery({ ...boxItemsQuery(source ?? LEGACY), enabled: source !== null });
  // The run's progress is polled while it runs; the queue follows each step of it, and its end. Any
  // run over the dataset counts: a newer answer in another run makes a verdict here stale.
  const run = source?.kind === 'dataset' ? runs.data?.find((r) => r.id === source.run_id) : undefined;
  const progressed =
    source?.kind === 'dataset'
      ? (runs.data ?? [])
          .filter((r) => r.dataset_id === source.dataset_id)
          .map((r) => `${r.id}:${r.done}:${r.failed}:${r.status}`)
          .join(' ')
      : '';
  useEffect(() => {
    if (progressed && source) void queryClient.invalidateQueries({ queryKey: itemsKey(source) });
    // Only a change in the run's progress calls for the list again.
  }, [progressed]);
  const [selected, setSelected] = useState<string | null>(null);
  const open = useCallback((id: string | null) => {
    setDatasetId(id);
    setSelected(null);
    setAnswers({ run_id: null, variant: 0 });
    // The first render's setDatasetId does as well as any later one: it writes the same key.
  }, []);
  const onAnswers = useCallback((run_id: string | null, variant: number) => setAnswers({ run_id, variant }), []);
  // File-name order, numbers by value (img-2 before img-10), as a folder shows them.
  const list = useMemo(
    () => (source ? [...(items.data ?? [])].sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true })) : []),
    [items.data, source],
  );
  return { datasetId, datasetName, source, answers, setAnswers, runs, items, run, selected, setSelected, open, onAnswers, list };
}
