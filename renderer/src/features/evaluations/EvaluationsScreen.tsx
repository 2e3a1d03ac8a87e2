import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import './evaluations.css';
import { Panel, ScreenHeader } from '../../ui/components';
import { evalRunsQuery } from './api';
import { DatasetsPanel } from './DatasetsPanel';
import { RunForm } from './RunForm';
import { RunView } from './RunView';

/** Test a question set on a labelled dataset across models: accuracy, cost, latency and calibration. */
export function EvaluationsScreen() {
  const [dataset, setDataset] = useState<string | null>(null);
  const [runId, setRunId] = useState<string | null>(null);
  // A run just started is brought into view (it is drawn below the form); one chosen from the list is not moved to.
  const [started, setStarted] = useState<string | null>(null);
  const runs = useQuery(evalRunsQuery());
  // The chosen run while it exists (a deleted one falls back to the newest).
  const current = runId && (!runs.data || runs.data.some((r) => r.id === runId)) ? runId : (runs.data?.[0]?.id ?? null);
  return (
    <div className="screen">
      <ScreenHeader title="Evaluations" description="Run a question set over a labelled dataset on several models: how often each is right, what it costs, how fast it is, and whether its probabilities can be trusted." />
      <DatasetsPanel selected={dataset} onSelect={setDataset} />
      <RunForm
        datasetId={dataset}
        onStarted={(id) => {
          setRunId(id);
          setStarted(id);
        }}
      />
      {runs.data && runs.data.length > 0 ? (
        <Panel title="Evaluation runs">
          <ul className="plain-list" aria-label="Evaluation runs">
            {runs.data.map((r) => (
              <li key={r.id}>
                <button type="button" className="link-button" aria-pressed={r.id === current} onClick={() => setRunId(r.id)}>
                  {r.name}
                </button>{' '}
                <span className="muted small">
                  {r.status} · {r.done}/{r.total} · {new Date(r.created_at).toLocaleString()}
                </span>
              </li>
            ))}
          </ul>
        </Panel>
      ) : null}
      {current ? <RunView key={current} id={current} reveal={current === started} /> : null}
    </div>
  );
}
