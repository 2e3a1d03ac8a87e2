import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { BoxItem } from '../../../../shared/schemas/inspector';
import { call } from '../../transport/transport';
import { ErrorNotice } from '../../ui/components';
import { BOXES_KEY } from './api';
import { reviewFromEvaluation } from './review';

const PAGE = 100;
const PARALLEL = 4;

/**
 * Brings one model's box answers from an evaluation run into the review queue, beside each item's
 * expected boxes, so a whole dataset's answers can be checked, accepted or rejected here. Loading
 * again updates the items it made before instead of adding them twice.
 */
export function EvaluationReview({ items }: { items: BoxItem[] }) {
  const queryClient = useQueryClient();
  const runs = useQuery({ queryKey: ['boxes', 'evaluations'], queryFn: () => call('evals.list', {}) });
  const [runId, setRunId] = useState('');
  const [variant, setVariant] = useState(0);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const run = runs.data?.find((r) => r.id === runId) ?? runs.data?.[0];
  const load = useMutation({
    mutationFn: async () => {
      if (!run) throw new Error('Choose an evaluation run.');
      const tag = `${run.id}#${variant}`;
      const mine = new Map(items.filter((i) => i.run_id === tag).map((i) => [i.name, i]));
      let loaded = 0;
      let skipped = 0;
      for (let offset = 0, total = Infinity; offset < total; offset += PAGE) {
        const page = await call('datasets.items', { dataset_id: run.dataset_id, offset, limit: PAGE });
        total = page.total;
        setProgress({ done: offset, total });
        const queue = [...page.items];
        const worker = async () => {
          for (let item = queue.shift(); item; item = queue.shift()) {
            const { results } = await call('evals.item', { id: run.id, position: item.position });
            const result = results.find((r) => r.variant === variant && r.ok);
            const review = reviewFromEvaluation(item, result?.answers ?? {});
            if (!review) {
              skipped += 1;
              continue;
            }
            const target = mine.get(review.name) ?? (await call('boxes.add', { name: review.name, data_url: review.data_url }));
            await call('boxes.update', { id: target.id, truth: review.truth.slice(0, 50), answers: review.answers, answer: Object.values(review.answers)[0] ?? null, model: run.variants[variant]?.model ?? null, run_id: tag });
            loaded += 1;
          }
        };
        await Promise.all(Array.from({ length: PARALLEL }, worker));
      }
      return { loaded, skipped };
    },
    onSettled: () => {
      setProgress(null);
      return queryClient.invalidateQueries({ queryKey: BOXES_KEY });
    },
  });
  if (!runs.data || runs.data.length === 0) return null;
  return (
    <>
      <div className="toolbar">
        <label htmlFor="box-eval-run">Review an evaluation</label>
        <select id="box-eval-run" value={run?.id ?? ''} onChange={(e) => (setRunId(e.target.value), setVariant(0))}>
          {runs.data.map((r) => (
            <option key={r.id} value={r.id}>
              {r.name} ({r.status}, {r.done} done)
            </option>
          ))}
        </select>
        <label htmlFor="box-eval-variant">Answers of</label>
        <select id="box-eval-variant" value={variant} onChange={(e) => setVariant(Number(e.target.value))}>
          {(run?.variants ?? []).map((v, i) => (
            <option key={i} value={i}>
              {v.label ?? v.model}
            </option>
          ))}
        </select>
        <button type="button" className="secondary" disabled={!run || load.isPending} onClick={() => load.mutate()}>
          Load for review
        </button>
        {progress ? (
          <span role="status" className="muted small">
            Loading {progress.done} of {progress.total}
          </span>
        ) : load.data ? (
          <span role="status" className="small">
            {load.data.loaded} item{load.data.loaded === 1 ? '' : 's'} loaded for review{load.data.skipped > 0 ? `; ${load.data.skipped} without an image left out` : ''}.
          </span>
        ) : null}
      </div>
      {load.error ? <ErrorNotice error={load.error} title="Not loaded" /> : null}
    </>
  );
}
