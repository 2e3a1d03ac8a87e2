import { useQuery } from '@tanstack/react-query';
import type { EvalRun } from '../../../../shared/schemas/evaluation';
import { useEffect, useState } from 'react';
import { modelKind } from '../../lib/answering';
import { useStored } from '../../lib/use-stored';
import { modelsQuery } from '../endpoints';
import type { BoxSource } from './api';
import { BoxQuestions } from './BoxQuestions';
import { DatasetRun } from './DatasetRun';
import type { BoxQuestion } from './review';

interface Props {
  datasetId: string | null;
  source: BoxSource | null;
  /** Whether the runs are listed yet, and the one under review (they set the panel's default fold). */
  runsLoaded: boolean;
  run: EvalRun | undefined;
  questions: BoxQuestion[];
  onQuestions: (questions: BoxQuestion[]) => void;
  runnable: boolean;
  onAnswers: (runId: string | null, variant: number) => void;
}

/**
 * The box questions, the model and the runs over the dataset, in a panel that folds away once a run
 * is there: the workbench below is what a reviewer came for.
 */
export function BoxSetup({ datasetId, source, runsLoaded, run, questions, onQuestions, runnable, onAnswers }: Props) {
  const hasRun = run !== undefined;
  const runSummary = run ? `${run.name} · ${run.status}, ${run.done} of ${run.total}` : source?.kind === 'dataset' ? 'not run yet' : '';
  const models = useQuery(modelsQuery());
  const [model, setModel] = useState('');
  useEffect(() => {
    if (!model && models.data) setModel(models.data.find((m) => m.id === 'sandbox/baseline-vision')?.id ?? models.data[0]?.id ?? '');
  }, [models.data, model]);
  // Folded when a dataset opens with a run over it already, open otherwise; a run started here leaves it as it is.
  const [folded, setFolded] = useState<{ dataset: string | null; open: boolean } | null>(null);
  useEffect(() => {
    if (runsLoaded && folded?.dataset !== datasetId) setFolded({ dataset: datasetId, open: !hasRun });
  }, [runsLoaded, datasetId]);
  // Folded or opened by the reviewer, per dataset: kept across runs, screens and reloads (it re-opened on every return).
  const [remembered, remember] = useStored<Record<string, boolean>>('verdict.boxes.setupOpen', {});
  const setupKey = datasetId ?? '';
  const setupOpen = remembered[setupKey] ?? (folded?.dataset === datasetId ? folded.open : !hasRun);
  return (
    <details
      className="panel boxes-setup"
      open={setupOpen}
      onToggle={(e) => {
        const nowOpen = e.currentTarget.open;
        setFolded({ dataset: datasetId, open: nowOpen });
        // A toggle the reviewer made, not the screen's own default moving (that fires toggle too).
        if (nowOpen !== setupOpen) remember({ ...remembered, [setupKey]: nowOpen });
      }}
    >
      <summary>
        <strong>Box questions and runs</strong>{' '}
        <span className="muted small">
          {questions.map((q) => q.name).join(', ') || 'none'} · {model || 'no model'}
          {runSummary ? ` · ${runSummary}` : ''}
        </span>
      </summary>
      {/* What will be run: the questions chosen, and the labels the truth names (editing one keeps it). */}
      <BoxQuestions questions={questions} onChange={onQuestions} />
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
  );
}
