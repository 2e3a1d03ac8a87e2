import { modelKind } from '../../lib/answering';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { BoxItem } from '../../../../shared/schemas/inspector';
import { baseName, stem } from '../../../../shared/box-formats/types';
import { call } from '../../transport/transport';
import { SandboxNotice } from '../settings';
import { once } from '../../lib/send-once';
import { announce } from '../../ui/announcer';
import { focusWhenShown } from '../../ui/focus-when-shown';
import { EmptyState, ErrorNotice, Panel, ScreenHeader } from '../../ui/components';
import { modelsQuery } from '../endpoints';
import { evalKeys, evalRunsQuery } from '../evaluations';
import { boxImageQuery, boxItemsQuery, imageOf, itemsKey, LEGACY, updateItem, type BoxSource, type ItemPatch } from './api';
import { BoxEditor } from './BoxEditor';
import { BoxQuestions, questionProblems } from './BoxQuestions';
import { DatasetPicker, LEGACY_ID, LegacyNotice } from './DatasetPicker';
import { DatasetRun } from './DatasetRun';
import { QueuePanel } from './QueuePanel';
import { reviewQuestions, ReviewBar, type RunImage, type RunModels, type Verdict } from './ReviewBar';
import { staleLabel } from './stale';
import { answersOf, matches, neighbour, NO_FILTER, questionsFor, worstIou, DEFAULT_QUESTIONS, type BoxQuestion, type QueueFilter } from './review';
import { BoxExport } from './BoxExport';
import { truthFromFiles } from './transfer';
import { useAddImages } from './use-add-images';
import { imageLine, verdictLine } from './review-text';
import { useReviewKeys } from './use-review-keys';
import { useStored } from './use-stored';
import './boxes.css';

const today = () => new Date().toISOString().slice(0, 16).replace('T', ' ');

export function BoxesScreen() {
  const queryClient = useQueryClient();
  const models = useQuery(modelsQuery());
  const [datasetId, setDatasetId] = useStored<string | null>('verdict.boxes.dataset', null);
  const [answers, setAnswers] = useState<{ run_id: string | null; variant: number }>({ run_id: null, variant: 0 });
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
  const [model, setModel] = useState('');
  const [chosen, setChosen] = useStored<BoxQuestion[]>('verdict.boxes.questions', [...DEFAULT_QUESTIONS]);
  const [autoAdvance, setAutoAdvance] = useStored('verdict.boxes.autoAdvance', true);
  const [threshold, setThreshold] = useState(0.5);
  const [filter, setFilter] = useState<QueueFilter>(NO_FILTER);
  const [imported, setImported] = useState<{ version: number; message: string } | null>(null);
  useEffect(() => {
    if (!model && models.data) setModel(models.data.find((m) => m.id === 'sandbox/baseline-vision')?.id ?? models.data[0]?.id ?? '');
  }, [models.data, model]);
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
  const questions = useMemo(() => questionsFor(chosen, list), [chosen, list]);
  const names = questions.map((q) => q.name);
  const shown = useMemo(() => list.filter((i) => matches(i, filter)), [list, filter]);
  // The editor shows an image the queue shows: the first one when none is chosen, or when a filter hid the chosen one.
  const filterKey = JSON.stringify(filter);
  useEffect(() => {
    if (shown.length === 0) return;
    if (!selected || !shown.some((i) => i.id === selected)) setSelected(shown[0]!.id);
    // Only a change of filter moves away from a hidden image: a verdict that drops the image from "not reviewed" waits for the next one.
  }, [filterKey, shown.length === 0, selected === null]);
  const current = list.find((i) => i.id === selected) ?? null;
  // The label the next box gets (1–9 choose it), the answer under review, and answers hidden from the image.
  const [nextLabel, setNextLabel] = useState<string | undefined>(undefined);
  const [focus, setFocus] = useState<string | null>(null);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());

  const replace = (item: BoxItem) => source && queryClient.setQueryData<BoxItem[]>(itemsKey(source), (old) => old?.map((i) => (i.id === item.id ? item : i)));
  const image = useQuery({ ...boxImageQuery(source ?? LEGACY, current?.id ?? ''), enabled: current !== null && source !== null });
  const { add, adding } = useAddImages(open);
  const addFiles = (picked: FileList, folder: boolean) => {
    const files = [...picked];
    const dir = files[0]?.webkitRelativePath.split('/')[0];
    const into = !folder && source?.kind === 'dataset' ? source.dataset_id : null;
    add.mutate({ files, datasetId: into, name: folder && dir ? dir : `Images ${today()}` });
  };
  const update = useMutation({ mutationFn: (patch: ItemPatch) => updateItem(source!, patch), onSuccess: replace });
  const remove = useMutation({
    mutationFn: (id: string) => call('boxes.remove', { id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: itemsKey(LEGACY) }),
  });
  const step = (by: 1 | -1) => {
    const next = neighbour(
      shown.map((i) => i.id),
      selected,
      by,
    );
    if (!next) return;
    const at = shown.findIndex((i) => i.id === next);
    // Drawing goes on on the next image: the canvas that had focus is replaced by that image's.
    if (document.activeElement?.matches('[data-testid="box-canvas"]')) {
      const label = `Ground truth for ${shown[at]!.name}:`;
      focusWhenShown(() => [...document.querySelectorAll<HTMLElement>('[data-testid="box-canvas"]')].find((c) => c.ariaLabel?.startsWith(label)));
    }
    setSelected(next);
    announce(imageLine(shown[at]!, at, shown.length));
  };
  const perQuestion = source?.kind === 'dataset';
  const itemQuestions = current ? reviewQuestions(current, names) : [];
  const focused = perQuestion ? (focus && itemQuestions.includes(focus) ? focus : (itemQuestions[0] ?? null)) : null;
  /**
   * A verdict is set, never toggled (Clear is its own action), on one answer or on the whole image.
   * Then the next answer without a verdict comes under review; with none left, the next image.
   */
  const verdict = (question: string | null, v: Verdict) => {
    if (!current) return;
    update.mutate(
      { id: current.id, verdict: v, ...(question !== null && perQuestion ? { question } : {}) },
      {
        onSuccess: (item) => {
          announce(verdictLine(question !== null && perQuestion ? question : null, v));
          if (v === null) return;
          const open = reviewQuestions(item, names).filter((q) => q in item.answers && !item.verdicts[q]);
          if (perQuestion && open.length > 0) {
            setFocus(open[0]!);
            announce(`Next answer under review: ${open[0]!}.`);
          } else if (autoAdvance && (item.verdict !== null || !perQuestion)) step(1);
        },
      },
    );
  };
  const note = (question: string | null, text: string) =>
    current && update.mutate({ id: current.id, note: text, ...(question !== null && perQuestion ? { question } : {}) });
  const runnable = questionProblems(chosen).length === 0;
  // The models of the run under review: verdicts are kept per model, so switching shows that model's.
  const runModels: RunModels | null =
    run && source?.kind === 'dataset'
      ? { names: run.variants.map((v) => v.name), variant: source.variant, onVariant: (v) => setAnswers({ run_id: run.id, variant: v }) }
      : null;
  // G pressed twice, or the button clicked twice, sends the image once.
  const runImageHeld = useRef(false);
  const runOnImage = useMutation({
    mutationFn: (every: boolean) =>
      call('boxReview.runImage', { dataset_id: datasetId!, position: Number(current!.id), run_id: run!.id, ...(every ? {} : { variants: [answers.variant] }) }),
    onSuccess: (started) => {
      // The run is running again: its progress is polled, and the queue follows it to its end.
      queryClient.setQueryData<typeof runs.data>(evalKeys.runs, (old) => old?.map((r) => (r.id === started.id ? started : r)));
      return queryClient.invalidateQueries({ queryKey: evalKeys.runs });
    },
  });
  const runImage: RunImage = {
    blocked:
      source?.kind !== 'dataset'
        ? 'Copy these images into a dataset first'
        : !run
          ? 'Run over the dataset first: the image is sent again through that run'
          : run.status === 'running'
            ? 'The run is still sending; wait until it ends or pause it'
            : run.status === 'cancelled'
              ? 'The run is cancelled; start a new one'
              : null,
    pending: runOnImage.isPending || (runOnImage.isSuccess && run?.status === 'running'),
    onRun: (every) => once(runImageHeld, () => runOnImage.mutateAsync(every)),
  };
  const importTruth = useMutation({
    mutationFn: async (files: FileList) => {
      const read = await Promise.all([...files].map(async (f) => ({ name: f.webkitRelativePath || f.name, text: await f.text() })));
      const byStem = truthFromFiles(read);
      const targets = list.filter((i) => byStem.has(stem(baseName(i.name))));
      for (const item of targets) replace(await updateItem(source!, { id: item.id, truth: byStem.get(stem(baseName(item.name)))!.slice(0, 50) }));
      const unmatched = byStem.size - new Set(targets.map((i) => stem(baseName(i.name)))).size;
      const labels = new Set([...byStem.values()].flat().map((b) => b.label));
      setChosen([...chosen, ...[...labels].filter((l) => !chosen.some((q) => q.name === l)).map((l) => ({ name: l, instructions: l }))]);
      const message = `Truth for ${targets.length} image${targets.length === 1 ? '' : 's'} imported${unmatched > 0 ? `; ${unmatched} image${unmatched === 1 ? '' : 's'} in the files are not loaded here` : ''}.`;
      setImported({ version: (imported?.version ?? 0) + 1, message });
      announce(message);
    },
  });

  useReviewKeys(current !== null, {
    // A and R judge the answer under review; with Shift, the whole image. C clears.
    onVerdict: (wholeImage, v) => verdict(wholeImage || !perQuestion ? null : focused, v),
    onLabel: (digit) => {
      const label = names[digit - 1];
      if (label) setNextLabel(label);
    },
    onStep: step,
    onRunImage: (every) => {
      if (runImage.blocked === null && !runImage.pending) runImage.onRun(every);
    },
  });

  const scored = list.map((i) => worstIou(i)).filter((s): s is number => s !== null);
  // Folded when a dataset opens with a run over it already, open otherwise; a run started here leaves it as it is.
  const [folded, setFolded] = useState<{ dataset: string | null; open: boolean } | null>(null);
  useEffect(() => {
    if (runs.data && folded?.dataset !== datasetId) setFolded({ dataset: datasetId, open: !run });
  }, [runs.data !== undefined, datasetId]);
  const setupOpen = folded?.dataset === datasetId ? folded.open : !run;
  const effectiveLabel = nextLabel === undefined ? names[0] : nextLabel || undefined;
  const runSummary = run ? `${run.name} · ${run.status}, ${run.done} of ${run.total}` : source?.kind === 'dataset' ? 'not run yet' : '';
  return (
    <>
      <ScreenHeader
        title="Boxes"
        description="Draw labelled ground-truth boxes over a dataset of images, run a box question per object over it and review each answer by IoU."
        actions={
          <>
            <label
              className={`file-button secondary${list.length === 0 ? ' disabled' : ''}`}
              title="COCO or Label Studio JSON, CSV as exported here, or YOLO classes.txt with label files"
            >
              Import truth…
              <input
                type="file"
                accept=".json,.csv,.txt,.names"
                multiple
                disabled={list.length === 0}
                onChange={(e) => e.target.files && importTruth.mutate(e.target.files)}
              />
            </label>
            <BoxExport items={list} threshold={threshold} />
          </>
        }
      />
      <SandboxNotice />
      <div className="toolbar boxes-source">
        <DatasetPicker value={datasetId} onChange={open} />
        <label className="file-button secondary" title={source?.kind === 'dataset' ? 'Add images to this dataset' : 'Make a dataset of images'}>
          Add images…
          <input type="file" accept="image/png,image/jpeg,image/gif,image/webp" multiple onChange={(e) => e.target.files && addFiles(e.target.files, false)} />
        </label>
        <label className="file-button secondary" title="Make a dataset of a folder's images, named after the folder">
          Add a folder…
          <input type="file" multiple {...({ webkitdirectory: '' } as object)} onChange={(e) => e.target.files && addFiles(e.target.files, true)} />
        </label>
        {adding ? (
          <span
            role="progressbar"
            aria-label="Images added"
            aria-valuemin={0}
            aria-valuemax={adding.total}
            aria-valuenow={adding.done}
            aria-valuetext={`${adding.done} of ${adding.total}`}
            className="muted small"
          >
            Adding images: {adding.done} of {adding.total}
          </span>
        ) : (
          <span className="muted small" title="Datasets of images imported in Evaluations open here too.">
            {source?.kind === 'dataset' ? 'Images added go into this dataset; a folder makes a new one.' : 'Images added make a dataset.'}
          </span>
        )}
      </div>
      {source?.kind === 'legacy' ? <LegacyNotice onCopied={open} /> : null}
      {add.error ? <ErrorNotice error={add.error} title="Images not added" /> : null}
      {/* Questions and runs fold away once a run is there: the workbench below is what a reviewer came for. */}
      <details className="panel boxes-setup" open={setupOpen} onToggle={(e) => setFolded({ dataset: datasetId, open: e.currentTarget.open })}>
        <summary>
          <strong>Box questions and runs</strong>{' '}
          <span className="muted small">
            {questions.map((q) => q.name).join(', ') || 'none'} · {model || 'no model'}
            {runSummary ? ` · ${runSummary}` : ''}
          </span>
        </summary>
        {/* What will be run: the questions chosen, and the labels the truth names (editing one keeps it). */}
        <BoxQuestions questions={questions} onChange={setChosen} />
        <div className="toolbar">
          <label htmlFor="box-model">Model</label>
          <input id="box-model" list="box-models" value={model} onChange={(e) => setModel(e.target.value)} size={28} />
          <datalist id="box-models">
            {(models.data ?? [])
              .filter((m) => m.locates_objects)
              .map((m) => (
                <option key={m.id} value={m.id}>
                  {m.name} · {modelKind(m)}
                </option>
              ))}
          </datalist>
        </div>
        {source?.kind === 'dataset' ? (
          <DatasetRun
            key={source.dataset_id}
            datasetId={source.dataset_id}
            model={model}
            questions={questions}
            runnable={runnable}
            runId={source.run_id}
            variant={source.variant}
            onAnswers={onAnswers}
          />
        ) : null}
      </details>
      {imported ? (
        <p className="small" data-testid="truth-imported">
          {imported.message}
        </p>
      ) : null}
      {items.error ? <ErrorNotice error={items.error} title="The images could not be listed" /> : null}
      {importTruth.error ? <ErrorNotice error={importTruth.error} title="Truth not imported; nothing was changed" /> : null}
      {update.error ? <ErrorNotice error={update.error} title="Not saved" /> : null}
      {list.length === 0 ? (
        <Panel title="Images">
          <EmptyState title="No images loaded">
            Add images or a folder above (they become a dataset, or open one made in Evaluations), draw the true box of each object, then run a box question per
            object over the dataset.
          </EmptyState>
        </Panel>
      ) : (
        <div className="split boxes-split">
          <QueuePanel
            items={list}
            shown={shown}
            total={list.length}
            selected={selected}
            onSelect={setSelected}
            filter={filter}
            onFilter={setFilter}
            questions={names}
            threshold={threshold}
            source={source?.kind === 'dataset' ? source.dataset_id : 'legacy'}
            loadImage={(id) => imageOf(source!, id)}
            models={runModels}
          >
            <div className="toolbar iou-threshold">
              <label htmlFor="iou-threshold">Pass at IoU ≥ {threshold.toFixed(2)}</label>
              <input
                id="iou-threshold"
                type="range"
                min={0.1}
                max={0.95}
                step={0.05}
                value={threshold}
                onChange={(e) => setThreshold(Number(e.target.value))}
                aria-valuetext={`pass at IoU ${threshold.toFixed(2)} or more`}
              />
              <span className="muted small">
                {scored.length > 0
                  ? `${scored.filter((x) => x >= threshold).length} of ${scored.length} scored images pass on every question · mean of the lowest IoU ${(scored.reduce((a, b) => a + b, 0) / scored.length).toFixed(3)}`
                  : 'No image has both a ground truth and an answer yet.'}
              </span>
            </div>
          </QueuePanel>
          {current ? (
            <Panel
              title={current.name}
              aside={
                <>
                  {current.stale ? (
                    <span className="stale-pill" data-testid="stale-pill">
                      Verdict stale: {staleLabel(current.stale_reason)}
                    </span>
                  ) : null}
                  {source?.kind === 'legacy' ? (
                    <button
                      type="button"
                      className="secondary"
                      onClick={() => {
                        remove.mutate(current.id);
                        setSelected(null);
                      }}
                    >
                      Remove image
                    </button>
                  ) : null}
                </>
              }
            >
              <div className="workbench-split">
                {image.data ? (
                  <BoxEditor
                    key={`${datasetId}-${current.id}-${imported?.version ?? 0}`}
                    image={image.data}
                    name={current.name}
                    size={current.width && current.height ? { width: current.width, height: current.height } : null}
                    truth={current.truth}
                    answers={answersOf(current)}
                    labels={names}
                    nextLabel={effectiveLabel}
                    onNextLabel={(l) => setNextLabel(l ?? '')}
                    hidden={hidden}
                    focus={focused}
                    onChange={(truth) => update.mutate({ id: current.id, truth })}
                  />
                ) : image.error ? (
                  <ErrorNotice error={image.error} title="The image could not be loaded" />
                ) : (
                  <div className="box-viewport" aria-busy="true" />
                )}
                <ReviewBar
                  item={current}
                  threshold={threshold}
                  labels={names}
                  perQuestion={perQuestion}
                  focus={focused}
                  onFocus={setFocus}
                  onVerdict={verdict}
                  onNote={note}
                  hidden={hidden}
                  onToggleHidden={(q) => setHidden((h) => (h.has(q) ? new Set([...h].filter((x) => x !== q)) : new Set([...h, q])))}
                  autoAdvance={autoAdvance}
                  onAutoAdvance={setAutoAdvance}
                  onStep={step}
                  models={runModels}
                  runImage={runImage}
                />
              </div>
              {runOnImage.error ? <ErrorNotice error={runOnImage.error} title="Not run on this image" /> : null}
            </Panel>
          ) : null}
        </div>
      )}
    </>
  );
}
