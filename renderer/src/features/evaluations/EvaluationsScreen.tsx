import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import './evaluations.css';
import { Panel, ScreenHeader } from '../../ui/components';
import { focusWhenShown } from '../../ui/focus-when-shown';
import { TabList } from '../../ui/Tabs';
import { RemoveSamples, SampleOffer } from '../samples';
import { datasetsQuery, evalRunsQuery } from './api';
import { DatasetsPanel } from './DatasetsPanel';
import { RunForm } from './RunForm';
import { RunView } from './RunView';

type Tab = 'runs' | 'new' | 'datasets';
const TABS: { id: Tab; label: string }[] = [
  { id: 'runs', label: 'Runs' },
  { id: 'new', label: 'New run' },
  { id: 'datasets', label: 'Datasets' },
];

/**
 * Test a question set on a labelled dataset across models: runs (the one chosen, with its metrics,
 * results and baseline), a new run, and the datasets, each a tab so the one in use fills the screen.
 */
export function EvaluationsScreen() {
  const [dataset, setDataset] = useState<string | null>(null);
  const [runId, setRunId] = useState<string | null>(null);
  // A run just started is brought into view; one chosen from the list is not moved to.
  const [started, setStarted] = useState<string | null>(null);
  const runs = useQuery(evalRunsQuery());
  const datasets = useQuery(datasetsQuery());
  const [chosenTab, setTab] = useState<Tab | null>(null);
  // The runs when there are some, else a new run when there is a dataset, else the datasets; fixed once
  // both lists have loaded, so a dataset imported on the Datasets tab does not move the screen away.
  const first: Tab = (runs.data?.length ?? 0) > 0 ? 'runs' : (datasets.data?.length ?? 0) > 0 ? 'new' : 'datasets';
  const loaded = runs.data !== undefined && datasets.data !== undefined;
  useEffect(() => {
    if (chosenTab === null && loaded) setTab(first);
  }, [chosenTab, loaded, first]);
  const tab: Tab = chosenTab ?? first;
  // The chosen run while it exists (a deleted one falls back to the newest).
  const current = runId && (!runs.data || runs.data.some((r) => r.id === runId)) ? runId : (runs.data?.[0]?.id ?? null);
  return (
    <div className="screen">
      <ScreenHeader
        title="Evaluations"
        description="Run a question set over a labelled dataset on several models: how often each is right, what it costs, how fast it is, and whether its probabilities can be trusted."
        actions={<RemoveSamples />}
      />
      <SampleOffer
        onAdded={({ dataset: added }) => {
          setDataset(added);
          setTab('new');
          // The offer is gone: focus goes to the tab the new dataset opened.
          focusWhenShown(() => document.getElementById('eval-tab-new'));
        }}
      />
      <TabList
        label="Evaluations"
        idPrefix="eval"
        selected={tab}
        onSelect={setTab}
        tabs={TABS.map((t) => ({
          id: t.id,
          label: (
            <>
              {t.label}
              {t.id === 'runs' && runs.data?.length ? <span className="tab-count">{runs.data.length}</span> : null}
              {t.id === 'datasets' && datasets.data?.length ? <span className="tab-count">{datasets.data.length}</span> : null}
            </>
          ),
        }))}
      />
      {/* Every tab stays mounted, hidden when not chosen: a form filled in, an estimate or an open item survives a look at another tab. */}
      <div role="tabpanel" id="eval-panel-datasets" aria-labelledby="eval-tab-datasets" hidden={tab !== 'datasets'}>
        <DatasetsPanel
          selected={dataset}
          onSelect={setDataset}
          onEvaluate={(id) => {
            setDataset(id);
            setTab('new');
          }}
        />
      </div>
      <div role="tabpanel" id="eval-panel-new" aria-labelledby="eval-tab-new" hidden={tab !== 'new'}>
        <RunForm
          datasetId={dataset}
          onStarted={(id) => {
            setRunId(id);
            setStarted(id);
            setTab('runs');
            // The form is hidden with its tab: focus goes to the new run's heading once it is drawn.
            focusWhenShown(() => document.querySelector<HTMLElement>(`[data-run-id="${id}"] h2`));
          }}
        />
      </div>
      <div role="tabpanel" id="eval-panel-runs" aria-labelledby="eval-tab-runs" hidden={tab !== 'runs'}>
        {runs.data && runs.data.length > 0 ? (
          <>
            <Panel title="Evaluation runs">
              <ul className="plain-list run-list" aria-label="Evaluation runs">
                {runs.data.map((r) => (
                  <li key={r.id}>
                    <button type="button" className="link-button" aria-pressed={r.id === current} onClick={() => setRunId(r.id)}>
                      {r.name}
                    </button>{' '}
                    <span className="muted small">
                      {r.status} · {r.done}/{r.total} · {new Date(r.created_at).toLocaleString()}
                      {r.baseline_id ? ` · against ${runs.data.find((b) => b.id === r.baseline_id)?.name ?? 'a deleted run'}` : ''}
                    </span>
                  </li>
                ))}
              </ul>
            </Panel>
            {current ? <RunView key={current} id={current} runs={runs.data} reveal={current === started && tab === 'runs'} /> : null}
          </>
        ) : (
          <Panel title="Evaluation runs">
            <p className="muted">No run yet: start one in New run.</p>
          </Panel>
        )}
      </div>
    </div>
  );
}
