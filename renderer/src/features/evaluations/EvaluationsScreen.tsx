import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import './evaluations.css';
import { Panel, ScreenHeader } from '../../ui/components';
import { focusWhenShown } from '../../ui/focus-when-shown';
import { TabList } from '../../ui/Tabs';
import { AddSamples, RemoveSamples, SampleOffer } from '../samples';
import type { EvalRun } from '../../../../shared/schemas/evaluation';
import { datasetsQuery, evalRunsQuery } from './api';
import { DatasetsPanel } from './DatasetsPanel';
import { RunForm } from './RunForm';
import { RunView } from './RunView';
import { hashParams } from '../../lib/hash-params';

type Tab = 'runs' | 'new' | 'datasets';
const TABS: { id: Tab; label: string }[] = [
  { id: 'runs', label: 'Runs' },
  { id: 'new', label: 'New run' },
  { id: 'datasets', label: 'Datasets' },
];

/**
 * The screen's state: the dataset and run chosen, a run to run again, the run just started, and the
 * tab (the runs when there are some, else a new run when there is a dataset, else the datasets).
 */
function useEvaluationsScreen() {
  // Opened from another screen on a dataset and a set ("#/evaluations?new&dataset=…&set=…", the Monitor's "Evaluate"): the New run tab on them.
  const [opened] = useState(() => hashParams());
  const [dataset, setDataset] = useState<string | null>(opened.get('dataset'));
  const [runId, setRunId] = useState<string | null>(null);
  // A finished run to run again from the New run tab, as its baseline.
  const [again, setAgain] = useState<EvalRun | null>(null);
  // A run just started is brought into view; one chosen from the list is not moved to.
  const [started, setStarted] = useState<string | null>(null);
  const runs = useQuery(evalRunsQuery());
  const datasets = useQuery(datasetsQuery());
  const [chosenTab, setTab] = useState<Tab | null>(opened.has('new') ? 'new' : null);
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
  const openedSet = opened.get('set');
  return { dataset, setDataset, openedSet, setRunId, again, setAgain, started, setStarted, runs: runs.data, datasets: datasets.data, tab, setTab, current };
}

/** The tabs, with the number of runs and of datasets. */
function EvaluationTabs({ tab, setTab, runs, datasets }: { tab: Tab; setTab: (t: Tab) => void; runs: number | undefined; datasets: number | undefined }) {
  return (
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
            {t.id === 'runs' && runs ? <span className="tab-count">{runs}</span> : null}
            {t.id === 'datasets' && datasets ? <span className="tab-count">{datasets}</span> : null}
          </>
        ),
      }))}
    />
  );
}

/** The runs, newest first, the chosen one pressed. */
function RunList({ runs, current, onChoose }: { runs: EvalRun[]; current: string | null; onChoose: (id: string) => void }) {
  return (
    <Panel title="Evaluation runs">
      <ul className="plain-list run-list" aria-label="Evaluation runs">
        {runs.map((r) => (
          <li key={r.id}>
            <button type="button" className="link-button" aria-pressed={r.id === current} onClick={() => onChoose(r.id)}>
              {r.name}
            </button>{' '}
            <span className="muted small">
              {r.status} · {r.done}/{r.total} · {new Date(r.created_at).toLocaleString()}
              {r.baseline_id ? ` · against ${runs.find((b) => b.id === r.baseline_id)?.name ?? 'a deleted run'}` : ''}
            </span>
          </li>
        ))}
      </ul>
    </Panel>
  );
}

type ScreenState = ReturnType<typeof useEvaluationsScreen>;

/** The Runs tab: the list and the chosen run, or a word that there is none yet. */
function RunsTab({ s }: { s: ScreenState }) {
  const { runs, current } = s;
  if (!runs || runs.length === 0)
    return (
      <Panel title="Evaluation runs">
        <p className="muted">No run yet: start one in New run.</p>
      </Panel>
    );
  return (
    <>
      <RunList runs={runs} current={current} onChoose={s.setRunId} />
      {current ? (
        <RunView
          key={current}
          id={current}
          runs={runs}
          reveal={current === s.started && s.tab === 'runs'}
          onRunAgain={(run) => {
            s.setAgain(run);
            s.setTab('new');
            focusWhenShown(() => document.getElementById('eval-tab-new'));
          }}
        />
      ) : null}
    </>
  );
}

/** The screen's header, with adding and removing the samples. */
function EvaluationsHeader({ onAdded }: { onAdded: (dataset: string) => void }) {
  return (
    <ScreenHeader
      title="Evaluations"
      description="Run a question set over a labelled dataset on several models: how often each is right, what it costs, how fast it is, and whether its probabilities can be trusted."
      actions={
        <>
          <AddSamples onAdded={({ dataset: added }) => onAdded(added)} />
          <RemoveSamples />
        </>
      }
    />
  );
}

/**
 * Test a question set on a labelled dataset across models: runs (the one chosen, with its metrics,
 * results and baseline), a new run, and the datasets, each a tab so the one in use fills the screen.
 */
export function EvaluationsScreen() {
  const s = useEvaluationsScreen();
  const { tab, setTab, setDataset } = s;
  return (
    <div className="screen">
      <EvaluationsHeader
        onAdded={(added) => {
          setDataset(added);
          setTab('datasets');
        }}
      />
      <SampleOffer
        onAdded={({ dataset: added }) => {
          setDataset(added);
          setTab('new');
          // The offer is gone: focus goes to the tab the new dataset opened.
          focusWhenShown(() => document.getElementById('eval-tab-new'));
        }}
      />
      <EvaluationTabs tab={tab} setTab={setTab} runs={s.runs?.length} datasets={s.datasets?.length} />
      {/* Every tab stays mounted, hidden when not chosen: a form filled in, an estimate or an open item survives a look at another tab. */}
      <div role="tabpanel" id="eval-panel-datasets" aria-labelledby="eval-tab-datasets" hidden={tab !== 'datasets'}>
        <DatasetsPanel
          selected={s.dataset}
          onSelect={setDataset}
          onEvaluate={(id) => {
            setDataset(id);
            setTab('new');
          }}
        />
      </div>
      <div role="tabpanel" id="eval-panel-new" aria-labelledby="eval-tab-new" hidden={tab !== 'new'}>
        <RunForm
          datasetId={s.dataset}
          setId={s.openedSet}
          again={s.again}
          onStarted={(id) => {
            s.setRunId(id);
            s.setStarted(id);
            setTab('runs');
            // The form is hidden with its tab: focus goes to the new run's heading once it is drawn.
            focusWhenShown(() => document.querySelector<HTMLElement>(`[data-run-id="${id}"] h2`));
          }}
        />
      </div>
      <div role="tabpanel" id="eval-panel-runs" aria-labelledby="eval-tab-runs" hidden={tab !== 'runs'}>
        <RunsTab s={s} />
      </div>
    </div>
  );
}
