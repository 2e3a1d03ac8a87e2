import { useQuery } from '@tanstack/react-query';
import type { DatasetSummary } from '../../../../shared/schemas/evaluation';
import { useEffect, useState } from 'react';
import { hashParams } from '../../lib/hash-params';
import { useStored } from '../../lib/use-stored';
import { datasetsQuery } from '../evaluations';
import { setsQuery } from '../question-sets';

/** The dataset a cascade's human stage fills (HUMAN_QUEUE in the core's reviews). */
export const HUMAN_REVIEW_DATASET = 'ds-human-review';

/** The dataset a reviewer most likely came for: the first with open captured items, else the human stage's, else the first. */
function likeliest(datasets: readonly DatasetSummary[]): string | null {
  const open = (d: DatasetSummary) => d.items > Math.max(0, ...Object.values(d.labelled));
  const captured = datasets.filter((d) => d.name.startsWith('Captured: '));
  return (captured.find(open) ?? datasets.find((d) => d.id === HUMAN_REVIEW_DATASET && open(d)) ?? captured[0] ?? datasets[0])?.id ?? null;
}

/** Which dataset is reviewed, and the question set its uncaptured items are asked with (none: their captured questions). */
export function useReviewSource() {
  const datasets = useQuery(datasetsQuery());
  const sets = useQuery(setsQuery());
  const [storedDataset, setDataset] = useStored<string | null>('verdict.review.dataset', null);
  // Opened from another screen on a dataset ("#/review?dataset=…", the Monitor's "Review the waiting items"): that one, and kept.
  const [opened] = useState(() => hashParams().get('dataset'));
  useEffect(() => {
    if (opened !== null && opened !== storedDataset) setDataset(opened);
  }, [opened]);
  const [storedSet, setQuestionSet] = useStored<string | null>('verdict.review.questionSet', null);
  const list = datasets.data ?? [];
  const datasetId = list.some((d) => d.id === storedDataset) ? storedDataset : likeliest(list);
  const questionSetId = storedSet !== null && sets.data?.some((s) => s.id === storedSet) ? storedSet : null;
  return { datasets, sets, datasetId, setDataset, questionSetId, setQuestionSet };
}

export type ReviewSource = ReturnType<typeof useReviewSource>;
