import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import type { Box } from '../../../../shared/schemas/answer';
import type { BoxItem } from '../../../../shared/schemas/inspector';
import { call } from '../../transport/transport';
import { SandboxNotice } from '../../app/SandboxNotice';
import { EmptyState, ErrorNotice, Panel, ScreenHeader } from '../../ui/components';
import { download } from '../../lib/download';
import { iou } from '../../../../shared/geometry/iou';
import { modelsQuery } from '../endpoints/api';
import { imagesFrom } from '../question-sets/StateEditor';
import { BoxEditor } from './BoxEditor';

const KEY = ['boxes', 'items'] as const;

/** Best IoU of the answer against any ground-truth box; null until both exist. */
export const bestIou = (item: Pick<BoxItem, 'answer' | 'truth'>): number | null =>
  item.answer && item.truth.length > 0 ? Math.max(...item.truth.map((t) => iou(item.answer!, t))) : null;

type Filter = 'all' | 'review' | 'pass' | 'fail' | 'unlabelled';

function toCsv(items: BoxItem[], threshold: number): string {
  const rows = [['image', 'model', 'iou', 'pass', 'verdict', 'note', 'answer_top', 'answer_left', 'answer_bottom', 'answer_right', 'truth_boxes']];
  for (const i of items) {
    const score = bestIou(i);
    rows.push([i.name, i.model ?? '', score === null ? '' : score.toFixed(4), score === null ? '' : String(score >= threshold), i.verdict ?? '', i.note, ...(i.answer ? [i.answer.top, i.answer.left, i.answer.bottom, i.answer.right].map((v) => v.toFixed(4)) : ['', '', '', '']), JSON.stringify(i.truth)]);
  }
  return rows.map((r) => r.map((c) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(',')).join('\n');
}

export function BoxesScreen() {
  const queryClient = useQueryClient();
  const items = useQuery({ queryKey: KEY, queryFn: () => call('boxes.list', {}) });
  const models = useQuery(modelsQuery());
  const [selected, setSelected] = useState<string | null>(null);
  const [model, setModel] = useState('');
  const [instructions, setInstructions] = useState('the main object');
  const [threshold, setThreshold] = useState(0.5);
  const [filter, setFilter] = useState<Filter>('all');
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  useEffect(() => {
    if (!model && models.data) setModel(models.data.find((m) => m.id === 'sandbox/baseline-vision')?.id ?? models.data[0]?.id ?? '');
  }, [models.data, model]);
  useEffect(() => {
    if (!selected && items.data?.[0]) setSelected(items.data[0].id);
  }, [items.data, selected]);
  const replace = (item: BoxItem) => queryClient.setQueryData<BoxItem[]>(KEY, (list) => list?.map((i) => (i.id === item.id ? item : i)));
  const add = useMutation({
    mutationFn: async (files: FileList) => {
      const images = await imagesFrom(files);
      return Promise.all(images.map((img) => call('boxes.add', { name: img.name, data_url: img.dataUrl })));
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: KEY }),
  });
  const update = useMutation({ mutationFn: (patch: { id: string } & Partial<Pick<BoxItem, 'truth' | 'verdict' | 'note'>>) => call('boxes.update', patch), onSuccess: replace });
  const remove = useMutation({ mutationFn: (id: string) => call('boxes.remove', { id }), onSuccess: () => queryClient.invalidateQueries({ queryKey: KEY }) });
  const run = useMutation({
    mutationFn: async (targets: BoxItem[]) => {
      setProgress({ done: 0, total: targets.length });
      const failures: string[] = [];
      for (const item of targets) {
        const started = await call('runs.start', {
          request: { model, state: [{ type: 'image_url', image_url: { url: item.data_url } }], questions: { box: { type: 'box', instructions } } },
          label: `box: ${item.name}`,
        });
        let current = started;
        while (current.status === 'running') {
          await new Promise((r) => setTimeout(r, 250));
          current = await call('runs.get', { id: started.id });
        }
        const answer = (current.response as { answers?: { box?: { type: string; box: Box } } } | null)?.answers?.box;
        if (answer?.type === 'box') replace(await call('boxes.update', { id: item.id, answer: answer.box, model, run_id: current.id }));
        else failures.push(`${item.name}: ${current.error?.message ?? 'no box'}`);
        setProgress((p) => (p ? { ...p, done: p.done + 1 } : p));
      }
      if (failures.length > 0) throw new Error(failures.join('; '));
    },
    onSettled: () => setProgress(null),
  });
  const list = items.data ?? [];
  const shown = useMemo(
    () =>
      list.filter((i) => {
        const score = bestIou(i);
        if (filter === 'review') return i.answer !== null && i.verdict === null;
        if (filter === 'pass') return score !== null && score >= threshold;
        if (filter === 'fail') return score !== null && score < threshold;
        if (filter === 'unlabelled') return i.truth.length === 0;
        return true;
      }),
    [list, filter, threshold],
  );
  const current = list.find((i) => i.id === selected) ?? null;
  const scored = list.map(bestIou).filter((s): s is number => s !== null);
  const exportName = `boxes-${new Date().toISOString().slice(0, 10)}`;
  return (
    <>
      <ScreenHeader
        title="Boxes"
        description="Draw ground-truth boxes over images, run box questions and review the answers by IoU."
        actions={
          <>
            <label className="file-button secondary">
              Add images…
              <input type="file" accept="image/png,image/jpeg,image/gif,image/webp" multiple onChange={(e) => e.target.files && add.mutate(e.target.files)} />
            </label>
            <label className="file-button secondary">
              Add a folder…
              <input type="file" multiple {...({ webkitdirectory: '' } as object)} onChange={(e) => e.target.files && add.mutate(e.target.files)} />
            </label>
            <button type="button" className="secondary" disabled={list.length === 0} onClick={() => download(`${exportName}.json`, JSON.stringify(list.map(({ data_url: _d, ...rest }) => ({ ...rest, iou: bestIou(rest), pass: bestIou(rest) === null ? null : bestIou(rest)! >= threshold })), null, 2))}>
              Export JSON
            </button>
            <button type="button" className="secondary" disabled={list.length === 0} onClick={() => download(`${exportName}.csv`, toCsv(list, threshold), 'text/csv')}>
              Export CSV
            </button>
          </>
        }
      />
      <SandboxNotice />
      <Panel title="Run a box question">
        <div className="toolbar">
          <label htmlFor="box-model">Model</label>
          <input id="box-model" list="box-models" value={model} onChange={(e) => setModel(e.target.value)} size={28} />
          <datalist id="box-models">
            {(models.data ?? []).map((m) => (
              <option key={m.id} value={m.id} />
            ))}
          </datalist>
          <label htmlFor="box-instructions">Locate</label>
          <input id="box-instructions" value={instructions} onChange={(e) => setInstructions(e.target.value)} size={24} />
          <button type="button" disabled={list.length === 0 || !model || run.isPending} onClick={() => run.mutate(list)}>
            Run on all {list.length}
          </button>
          <button type="button" className="secondary" disabled={!current || !model || run.isPending} onClick={() => current && run.mutate([current])}>
            Run on this image
          </button>
          {progress ? (
            <span role="status" className="muted small">
              {progress.done} of {progress.total} done
            </span>
          ) : null}
        </div>
        <div className="toolbar">
          <label htmlFor="iou-threshold">Pass at IoU ≥ {threshold.toFixed(2)}</label>
          <input id="iou-threshold" type="range" min={0.1} max={0.95} step={0.05} value={threshold} onChange={(e) => setThreshold(Number(e.target.value))} />
          <span className="muted small">
            {scored.length > 0 ? `${scored.filter((s) => s >= threshold).length} of ${scored.length} scored images pass · mean IoU ${(scored.reduce((a, b) => a + b, 0) / scored.length).toFixed(3)}` : 'No image has both a ground truth and an answer yet.'}
          </span>
        </div>
        {run.error ? <ErrorNotice error={run.error} title="Some images got no box" /> : null}
        {add.error ? <ErrorNotice error={add.error} title="Images not added" /> : null}
      </Panel>
      {list.length === 0 ? (
        <Panel title="Images">
          <EmptyState title="No images loaded">Add images or a folder above, draw the true boxes, then run a box question on them.</EmptyState>
        </Panel>
      ) : (
        <div className="split">
          <Panel title="Review queue">
            <label htmlFor="queue-filter" className="visually-hidden">
              Show
            </label>
            <select id="queue-filter" value={filter} onChange={(e) => setFilter(e.target.value as Filter)}>
              <option value="all">all ({list.length})</option>
              <option value="review">needs review</option>
              <option value="fail">below threshold</option>
              <option value="pass">passing</option>
              <option value="unlabelled">no ground truth</option>
            </select>
            <ul className="set-list" aria-label="Images">
              {shown.map((i) => {
                const score = bestIou(i);
                return (
                  <li key={i.id} aria-current={i.id === selected ? 'true' : undefined}>
                    <button type="button" className="link-button" onClick={() => setSelected(i.id)}>
                      <strong>{i.name}</strong>
                      <span className="small">
                        {score === null ? <span className="muted">{i.truth.length === 0 ? 'no ground truth' : 'not run'}</span> : <span className={score >= threshold ? 'text-ok' : 'text-error'}>IoU {score.toFixed(2)}</span>}
                        {i.verdict ? ` · ${i.verdict}` : ''}
                      </span>
                    </button>
                  </li>
                );
              })}
            </ul>
          </Panel>
          {current ? (
            <Panel title={current.name} aside={<button type="button" className="secondary" onClick={() => { remove.mutate(current.id); setSelected(null); }}>Remove image</button>}>
              <BoxEditor key={current.id} image={current.data_url} name={current.name} truth={current.truth} answer={current.answer} onChange={(truth) => update.mutate({ id: current.id, truth })} />
              <div className="toolbar">
                <strong data-testid="iou">{bestIou(current) === null ? 'IoU: not available yet' : `IoU ${bestIou(current)!.toFixed(3)} · ${bestIou(current)! >= threshold ? 'pass' : 'fail'}`}</strong>
                {current.model ? <span className="muted small">answered by {current.model}</span> : null}
                <button type="button" className={current.verdict === 'accepted' ? '' : 'secondary'} onClick={() => update.mutate({ id: current.id, verdict: current.verdict === 'accepted' ? null : 'accepted' })} aria-pressed={current.verdict === 'accepted'}>
                  Accept
                </button>
                <button type="button" className={current.verdict === 'rejected' ? '' : 'secondary'} onClick={() => update.mutate({ id: current.id, verdict: current.verdict === 'rejected' ? null : 'rejected' })} aria-pressed={current.verdict === 'rejected'}>
                  Reject
                </button>
              </div>
              <label htmlFor="box-note">Note</label>
              <textarea id="box-note" rows={2} defaultValue={current.note} key={`${current.id}-note`} onBlur={(e) => e.target.value !== current.note && update.mutate({ id: current.id, note: e.target.value })} />
            </Panel>
          ) : null}
        </div>
      )}
    </>
  );
}
