import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import type { BoxItem } from '../../../../shared/schemas/inspector';
import { baseName, stem } from '../../../../shared/box-formats/types';
import { call } from '../../transport/transport';
import { SandboxNotice } from '../../app/SandboxNotice';
import { EmptyState, ErrorNotice, Panel, ScreenHeader } from '../../ui/components';
import { modelsQuery } from '../endpoints/api';
import { imagesFrom } from '../question-sets/StateEditor';
import { boxImageQuery, boxItemsQuery, BOXES_KEY, runItem, withoutImage } from './api';
import { BoxEditor } from './BoxEditor';
import { BoxQuestions, questionProblems } from './BoxQuestions';
import { EvaluationReview } from './EvaluationReview';
import { QueuePanel } from './QueuePanel';
import { ReviewBar } from './ReviewBar';
import { answersOf, matches, neighbour, NO_FILTER, questionsFor, toBoxImages, worstIou, DEFAULT_QUESTION, type BoxQuestion, type QueueFilter } from './review';
import { exportFiles, save, truthFromFiles, type ExportFormat } from './transfer';
import { useStored } from './use-stored';
import './boxes.css';

const FORMATS: { format: ExportFormat; label: string }[] = [
  { format: 'coco', label: 'COCO JSON (truth and answers)' },
  { format: 'label-studio', label: 'Label Studio JSON' },
  { format: 'yolo', label: 'YOLO (zip)' },
  { format: 'csv', label: 'CSV (pixels)' },
];

/** Images read and sent together when adding a folder. */
const ADD_CHUNK = 24;
const FIRST_CHUNK = 10;
/** Images run at once by "Run on all" (a dataset evaluation has its own concurrency setting). */
const RUN_PARALLEL = 3;

const typing = (t: EventTarget | null) => t instanceof HTMLElement && (t.matches('input, textarea, select, [contenteditable="true"]') || t.isContentEditable);

export function BoxesScreen() {
  const queryClient = useQueryClient();
  const items = useQuery(boxItemsQuery());
  const models = useQuery(modelsQuery());
  const [selected, setSelected] = useState<string | null>(null);
  const [model, setModel] = useState('');
  const [chosen, setChosen] = useStored<BoxQuestion[]>('verdict.boxes.questions', [{ name: DEFAULT_QUESTION, instructions: 'the main object' }]);
  const [autoAdvance, setAutoAdvance] = useStored('verdict.boxes.autoAdvance', true);
  const [threshold, setThreshold] = useState(0.5);
  const [filter, setFilter] = useState<QueueFilter>(NO_FILTER);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [imported, setImported] = useState<{ version: number; message: string } | null>(null);
  const [exportError, setExportError] = useState<unknown>(null);
  const [exportFormat, setExportFormat] = useStored<ExportFormat>('verdict.boxes.exportFormat', 'coco');
  useEffect(() => {
    if (!model && models.data) setModel(models.data.find((m) => m.id === 'sandbox/baseline-vision')?.id ?? models.data[0]?.id ?? '');
  }, [models.data, model]);
  // File-name order, numbers by value (img-2 before img-10), as a folder shows them.
  const list = useMemo(() => [...(items.data ?? [])].sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true })), [items.data]);
  const questions = useMemo(() => questionsFor(chosen, list), [chosen, list]);
  const names = questions.map((q) => q.name);
  const shown = useMemo(() => list.filter((i) => matches(i, filter)), [list, filter]);
  useEffect(() => {
    if (!selected && shown[0]) setSelected(shown[0].id);
  }, [shown, selected]);
  const current = list.find((i) => i.id === selected) ?? null;

  const replace = (item: BoxItem) => queryClient.setQueryData<BoxItem[]>(BOXES_KEY, (old) => old?.map((i) => (i.id === item.id ? withoutImage(item) : i)));
  const image = useQuery({ ...boxImageQuery(current?.id ?? ''), enabled: current !== null });
  const [adding, setAdding] = useState<{ done: number; total: number } | null>(null);
  const add = useMutation({
    // A few images at a time, read and sent together, so a big folder neither holds every file in
    // memory at once nor floods the server; the queue shows the first ones while the rest arrive.
    mutationFn: async (picked: FileList) => {
      const files = [...picked];
      setAdding({ done: 0, total: files.length });
      // The first chunk is one screen of the queue, so it appears as soon as those few are stored.
      for (let i = 0, size = FIRST_CHUNK; i < files.length; i += size, size = ADD_CHUNK) {
        const images = await imagesFrom(files.slice(i, i + size));
        await Promise.all(images.map((img) => call('boxes.add', { name: img.name, data_url: img.dataUrl })));
        setAdding({ done: Math.min(files.length, i + size), total: files.length });
        if (i === 0) await queryClient.invalidateQueries({ queryKey: BOXES_KEY });
      }
    },
    onSettled: () => {
      setAdding(null);
      return queryClient.invalidateQueries({ queryKey: BOXES_KEY });
    },
  });
  const update = useMutation({ mutationFn: (patch: Parameters<typeof call<'boxes.update'>>[1]) => call('boxes.update', patch), onSuccess: replace });
  const remove = useMutation({ mutationFn: (id: string) => call('boxes.remove', { id }), onSuccess: () => queryClient.invalidateQueries({ queryKey: BOXES_KEY }) });
  const step = (by: 1 | -1) => {
    const next = neighbour(shown.map((i) => i.id), selected, by);
    if (next) setSelected(next);
  };
  const verdict = (v: BoxItem['verdict']) => {
    if (!current) return;
    update.mutate({ id: current.id, verdict: v });
    if (v !== null && autoAdvance) step(1);
  };
  const runnable = questionProblems(chosen).length === 0;
  const run = useMutation({
    mutationFn: async (targets: BoxItem[]) => {
      setProgress({ done: 0, total: targets.length });
      const failures: string[] = [];
      const queue = [...targets];
      const worker = async () => {
        for (let item = queue.shift(); item; item = queue.shift()) {
          const result = await runItem(item, model, questions);
          if (result.item) replace(result.item);
          if (result.failure) failures.push(result.failure);
          setProgress((p) => (p ? { ...p, done: p.done + 1 } : p));
        }
      };
      await Promise.all(Array.from({ length: RUN_PARALLEL }, worker));
      if (failures.length > 0) throw new Error(failures.join('; '));
    },
    onSettled: () => setProgress(null),
  });
  const importTruth = useMutation({
    mutationFn: async (files: FileList) => {
      const read = await Promise.all([...files].map(async (f) => ({ name: f.webkitRelativePath || f.name, text: await f.text() })));
      const byStem = truthFromFiles(read);
      const targets = list.filter((i) => byStem.has(stem(baseName(i.name))));
      for (const item of targets) replace(await call('boxes.update', { id: item.id, truth: byStem.get(stem(baseName(item.name)))!.slice(0, 50) }));
      const unmatched = byStem.size - new Set(targets.map((i) => stem(baseName(i.name)))).size;
      const labels = new Set([...byStem.values()].flat().map((b) => b.label));
      setChosen([...chosen, ...[...labels].filter((l) => !chosen.some((q) => q.name === l)).map((l) => ({ name: l, instructions: l }))]);
      setImported({ version: (imported?.version ?? 0) + 1, message: `Truth for ${targets.length} image${targets.length === 1 ? '' : 's'} imported${unmatched > 0 ? `; ${unmatched} image${unmatched === 1 ? '' : 's'} in the files are not loaded here` : ''}.` });
    },
  });

  const saveDataset = useMutation({
    mutationFn: () => call('datasets.fromBoxes', { name: `Box review ${new Date().toISOString().slice(0, 16).replace('T', ' ')}`, question: DEFAULT_QUESTION }),
  });

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target) || !current) return;
      const key = e.key.toLowerCase();
      if (key === 'a') verdict('accepted');
      else if (key === 'r') verdict('rejected');
      else if (key === 'j' || key === ']') step(1);
      else if (key === 'k' || key === '[') step(-1);
      else return;
      e.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  });

  const scored = list.map((i) => worstIou(i)).filter((s): s is number => s !== null);
  const exportAs = (format: ExportFormat) => {
    setExportError(null);
    try {
      exportFiles(format, toBoxImages(list), `boxes-${new Date().toISOString().slice(0, 10)}`, threshold).forEach(save);
    } catch (e) {
      setExportError(e);
    }
  };
  return (
    <>
      <ScreenHeader
        title="Boxes"
        description="Draw labelled ground-truth boxes over images, run a box question per object and review the answers by IoU."
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
            <label className={`file-button secondary${list.length === 0 ? ' disabled' : ''}`} title="COCO or Label Studio JSON, CSV as exported here, or YOLO classes.txt with label files">
              Import truth…
              <input type="file" accept=".json,.csv,.txt,.names" multiple disabled={list.length === 0} onChange={(e) => e.target.files && importTruth.mutate(e.target.files)} />
            </label>
            <span className="button-group">
              <label htmlFor="box-export-format" className="visually-hidden">
                Export format
              </label>
              <select id="box-export-format" value={exportFormat} onChange={(e) => setExportFormat(e.target.value as ExportFormat)}>
                {FORMATS.map(({ format, label }) => (
                  <option key={format} value={format}>
                    {label}
                  </option>
                ))}
              </select>
              <button type="button" className="secondary" disabled={list.length === 0} onClick={() => exportAs(exportFormat)}>
                Export
              </button>
            </span>
          </>
        }
      />
      <SandboxNotice />
      <Panel title="Box questions">
        <BoxQuestions questions={chosen} onChange={setChosen} />
        <div className="toolbar">
          <label htmlFor="box-model">Model</label>
          <input id="box-model" list="box-models" value={model} onChange={(e) => setModel(e.target.value)} size={28} />
          <datalist id="box-models">
            {(models.data ?? []).map((m) => (
              <option key={m.id} value={m.id} />
            ))}
          </datalist>
          <button type="button" disabled={list.length === 0 || !model || !runnable || run.isPending} onClick={() => run.mutate(list)}>
            Run on all {list.length}
          </button>
          <button type="button" className="secondary" disabled={!current || !model || !runnable || run.isPending} onClick={() => current && run.mutate([current])}>
            Run on this image
          </button>
          {adding ? (
            <span role="status" className="muted small">
              Adding images: {adding.done} of {adding.total}
            </span>
          ) : null}
          {progress ? (
            <span role="status" className="muted small">
              {progress.done} of {progress.total} done
            </span>
          ) : null}
        </div>
        <div className="toolbar">
          <label htmlFor="iou-threshold">Pass at IoU ≥ {threshold.toFixed(2)}</label>
          <input id="iou-threshold" type="range" min={0.1} max={0.95} step={0.05} value={threshold} onChange={(e) => setThreshold(Number(e.target.value))} />
          <span className="muted small">{scored.length > 0 ? `${scored.filter((s) => s >= threshold).length} of ${scored.length} scored images pass on every question · mean of the lowest IoU ${(scored.reduce((a, b) => a + b, 0) / scored.length).toFixed(3)}` : 'No image has both a ground truth and an answer yet.'}</span>
        </div>
        {imported ? (
          <p role="status" className="small">
            {imported.message}
          </p>
        ) : null}
        <div className="toolbar">
          <button type="button" className="secondary" disabled={list.length === 0 || saveDataset.isPending} onClick={() => saveDataset.mutate()}>
            Save as a dataset
          </button>
          {saveDataset.data ? (
            <span role="status" className="small">
              Saved “{saveDataset.data.name}” ({saveDataset.data.items} images, each labelled box the expected answer of its question). Evaluate it on several models, with mean IoU, pass rate and the IoU histogram, in <a href="#/evaluations">Evaluations</a>.
            </span>
          ) : (
            <span className="muted small">For a large folder or several models, save the images and their truth as a dataset and run an evaluation over it.</span>
          )}
        </div>
        <EvaluationReview items={list} />
        {saveDataset.error ? <ErrorNotice error={saveDataset.error} title="Not saved as a dataset" /> : null}
        {run.error ? <ErrorNotice error={run.error} title="Some images got no box" /> : null}
        {add.error ? <ErrorNotice error={add.error} title="Images not added" /> : null}
        {importTruth.error ? <ErrorNotice error={importTruth.error} title="Truth not imported; nothing was changed" /> : null}
        {exportError ? <ErrorNotice error={exportError} title="Not exported" /> : null}
      </Panel>
      {list.length === 0 ? (
        <Panel title="Images">
          <EmptyState title="No images loaded">Add images or a folder above, draw the true box of each object, then run a box question per object on them.</EmptyState>
        </Panel>
      ) : (
        <div className="split">
          <QueuePanel items={list} shown={shown} total={list.length} selected={selected} onSelect={setSelected} filter={filter} onFilter={setFilter} questions={names} threshold={threshold} />
          {current ? (
            <Panel
              title={current.name}
              aside={
                <button type="button" className="secondary" onClick={() => { remove.mutate(current.id); setSelected(null); }}>
                  Remove image
                </button>
              }
            >
              {image.data ? (
                <BoxEditor
                  key={`${current.id}-${imported?.version ?? 0}`}
                  image={image.data}
                  name={current.name}
                  size={current.width && current.height ? { width: current.width, height: current.height } : null}
                  truth={current.truth}
                  answers={answersOf(current)}
                  labels={names}
                  onChange={(truth) => update.mutate({ id: current.id, truth })}
                />
              ) : image.error ? (
                <ErrorNotice error={image.error} title="The image could not be loaded" />
              ) : (
                <div className="box-viewport" aria-busy="true" />
              )}
              <ReviewBar item={current} threshold={threshold} autoAdvance={autoAdvance} onAutoAdvance={setAutoAdvance} onVerdict={verdict} onNote={(note) => update.mutate({ id: current.id, note })} onStep={step} />
            </Panel>
          ) : null}
        </div>
      )}
    </>
  );
}
