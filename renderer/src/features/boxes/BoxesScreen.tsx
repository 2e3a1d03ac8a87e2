import { useEffect, useMemo, useState } from 'react';
import { SandboxNotice } from '../settings';
import { announce } from '../../ui/announcer';
import { EmptyState, ErrorNotice, Panel, ScreenHeader } from '../../ui/components';
import { imageOf, useImportTruth } from './api';
import { questionProblems } from './BoxQuestions';
import { BoxSetup } from './BoxSetup';
import { BoxSourceBar } from './BoxSourceBar';
import { LegacyNotice } from './DatasetPicker';
import { ImagePanel } from './ImagePanel';
import { IouThreshold } from './IouThreshold';
import { QueuePanel } from './QueuePanel';
import { matches, NO_FILTER, questionsFor, DEFAULT_QUESTIONS, type BoxQuestion, type QueueFilter } from './review';
import { BoxExport } from './BoxExport';
import { TruthImport } from './TruthImport';
import { useAddImages } from './use-add-images';
import { useBoxReview } from './use-box-review';
import { useBoxSource } from './use-box-source';
import { useStored } from '../../lib/use-stored';
import './boxes.css';

const today = () => new Date().toISOString().slice(0, 16).replace('T', ' ');

export function BoxesScreen() {
  const { datasetId, datasetName, source, answers, setAnswers, runs, items, run, selected, setSelected, open, onAnswers, list } = useBoxSource();
  const [chosen, setChosen] = useStored<BoxQuestion[]>('verdict.boxes.questions', [...DEFAULT_QUESTIONS]);
  const [autoAdvance, setAutoAdvance] = useStored('verdict.boxes.autoAdvance', true);
  const [threshold, setThreshold] = useState(0.5);
  const [filter, setFilter] = useState<QueueFilter>(NO_FILTER);
  const [imported, setImported] = useState<{ version: number; message: string } | null>(null);
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
  const review = useBoxReview({
    source,
    datasetId,
    run,
    variant: answers.variant,
    onVariant: (run_id, variant) => setAnswers({ run_id, variant }),
    list,
    shown,
    names,
    selected,
    onSelect: setSelected,
    autoAdvance,
  });
  const { current, update } = review;
  const { add, adding } = useAddImages(open);
  const addFiles = (picked: FileList, folder: boolean) => {
    const files = [...picked];
    const dir = files[0]?.webkitRelativePath.split('/')[0];
    const into = !folder && source?.kind === 'dataset' ? source.dataset_id : null;
    add.mutate({ files, datasetId: into, name: folder && dir ? dir : `Images ${today()}` });
  };
  const importTruth = useImportTruth({
    list,
    source,
    replace: review.replace,
    onLabels: (labels) => setChosen([...chosen, ...[...labels].filter((l) => !chosen.some((q) => q.name === l)).map((l) => ({ name: l, instructions: l }))]),
    onImported: (message) => {
      setImported({ version: (imported?.version ?? 0) + 1, message });
      announce(message);
    },
  });
  return (
    <>
      <ScreenHeader
        title="Boxes"
        description="Draw labelled ground-truth boxes over a dataset of images, run a box question per object over it and review each answer by IoU."
        actions={
          <>
            <TruthImport disabled={list.length === 0} onFiles={(files) => importTruth.mutate(files)} />
            <BoxExport items={list} threshold={threshold} name={datasetName} />
          </>
        }
      />
      <SandboxNotice />
      <BoxSourceBar datasetId={datasetId} source={source} onOpen={open} adding={adding} onFiles={addFiles} />
      {source?.kind === 'legacy' ? <LegacyNotice onCopied={open} /> : null}
      {add.error ? <ErrorNotice error={add.error} title="Images not added" /> : null}
      <BoxSetup
        datasetId={datasetId}
        source={source}
        runsLoaded={runs.data !== undefined}
        run={run}
        questions={questions}
        onQuestions={setChosen}
        runnable={questionProblems(chosen).length === 0}
        onAnswers={onAnswers}
      />
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
            models={review.runModels}
          >
            <IouThreshold items={list} threshold={threshold} onThreshold={setThreshold} />
          </QueuePanel>
          {current ? (
            <ImagePanel
              current={current}
              review={review}
              legacy={source?.kind === 'legacy'}
              editorKey={`${datasetId}-${current.id}-${imported?.version ?? 0}`}
              names={names}
              threshold={threshold}
              autoAdvance={autoAdvance}
              onAutoAdvance={setAutoAdvance}
              onRemoved={() => setSelected(null)}
            />
          ) : null}
        </div>
      )}
    </>
  );
}
