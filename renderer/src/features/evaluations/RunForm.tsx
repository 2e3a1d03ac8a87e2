import { useRef, useState } from 'react';
import { call } from '../../transport/transport';
import { ErrorNotice, Panel } from '../../ui/components';
import { useEstimateRun, useStartRun } from './api';
import type { EvalEstimate, EvalRun } from '../../../../shared/schemas/evaluation';
import { variantsOf } from './run-variants';
import { clickOnce, once } from '../../lib/send-once';
import { BudgetNotes, budgetShortfall, RunEstimate } from './RunEstimate';
import { RunChoices } from './RunChoices';
import { RunOptions } from './RunOptions';
import { useRunChoices } from './use-run-choices';

/** Set × dataset × models, with the estimate shown before anything is sent. */
export function RunForm({
  datasetId,
  setId,
  again,
  onStarted,
}: {
  datasetId: string | null;
  /** The question set to start on (another screen opened this one on it); the first saved set when null. */
  setId: string | null;
  /** A finished run to run again: its dataset and models are taken, and it is the new run's baseline. */
  again: EvalRun | null;
  onStarted: (id: string) => void;
}) {
  // Moved by every change of the form the estimate depends on: an answer asked for before the change is not shown after it.
  const inputsSeen = useRef(0);
  const inputsChanged = () => {
    inputsSeen.current += 1;
    setEstimated(null);
    setAsked(null);
  };
  const choices = useRunChoices({ datasetId, initialSet: setId, again, changed: () => inputsChanged() });
  const { sets, runs, fits, effectiveSet, effectiveDataset, cascades, ticked, problems, pairing, baselineRun } = choices;
  const [concurrency, setConcurrency] = useState(4);
  const [budget, setBudget] = useState('');
  // The estimate with the dataset it was made for: the dataset can also change from the Datasets panel.
  // `cascade` marks, per variant in the estimate's order, the cascades among them.
  const [estimated, setEstimated] = useState<{ dataset: string; estimate: EvalEstimate; cascade: boolean[] } | null>(null);
  // The set and dataset whose pairing problems Start has said once: a second Start runs them anyway.
  const [asked, setAsked] = useState<string | null>(null);
  const [preferences, setPreferences] = useState('');
  const [runName, setRunName] = useState('');
  const estimate = estimated?.dataset === effectiveDataset ? estimated.estimate : null;
  const budgetUsd = budget.trim() === '' || !Number.isFinite(Number(budget)) ? null : Number(budget);
  const shortfall = budgetShortfall(estimate, budgetUsd);
  const input = async () => {
    const saved = await call('sets.get', { id: effectiveSet });
    return { request: saved.request, dataset_id: effectiveDataset, variants: variantsOf(ticked, preferences, cascades) };
  };
  const estimating = useEstimateRun({ input, concurrency, inputsSeen, onEstimated: setEstimated });
  const starting = useStartRun({ input, concurrency, budget, runName, baseline: baselineRun, onStarted });
  /**
   * A set paired with a dataset it cannot be judged on (or of the other kind of content) is said
   * beside the dataset; Start then asks once more before sending anything. With a budget and no
   * estimate yet, the estimate comes first: a budget below one request's worst case stops the run
   * before it sends anything, so that is said and the run waits for a second Start.
   */
  const submit = async () => {
    if (problems.length > 0 && asked !== pairing) return setAsked(pairing);
    if (budgetUsd !== null && estimate === null) {
      const fresh = await estimating.mutateAsync().catch(() => null);
      if (budgetShortfall(fresh?.estimate ?? null, budgetUsd)) return;
    }
    await starting.mutateAsync();
  };
  // A double click on Start starts one run (twice the cost otherwise), and on Estimate asks once.
  const startHeld = useRef(false);
  const estimateHeld = useRef(false);
  // Start waits for how the dataset suits the set, so a pairing problem is said before anything is sent.
  const ready = ticked.length + cascades.length > 0 && effectiveDataset !== '' && (sets.data?.length ?? 0) > 0 && fits.data !== undefined;
  const variantWord = preferences.trim() ? 'preference set' : cascades.length > 0 ? 'variant' : 'model';
  return (
    <Panel title="New evaluation run">
      <form
        className="eval-form"
        onSubmit={(e) => {
          e.preventDefault();
          once(startHeld, submit);
        }}
      >
        {/* The estimate stays while only the budget, concurrency or name change: it does not depend on them. */}
        <RunChoices choices={choices} asked={asked === pairing} />
        <RunOptions
          preferences={preferences}
          onPreferences={(text) => {
            setPreferences(text);
            inputsChanged();
          }}
          runs={(runs.data ?? []).filter((r) => r.dataset_id === effectiveDataset)}
          baseline={baselineRun?.id ?? ''}
          onBaseline={choices.setBaseline}
          runName={runName}
          onRunName={setRunName}
          concurrency={concurrency}
          onConcurrency={setConcurrency}
          budget={budget}
          onBudget={setBudget}
        />
        <div className="toolbar">
          <button
            type="button"
            className="secondary"
            disabled={!ready || estimating.isPending}
            onClick={clickOnce(estimateHeld, () => estimating.mutateAsync())}
          >
            Estimate
          </button>
          {/* A double click's second click does not submit again, even after the first start answered. */}
          <button type="submit" disabled={!ready || starting.isPending || estimating.isPending} onClick={(e) => e.detail > 1 && e.preventDefault()}>
            {shortfall || asked === pairing ? 'Start anyway' : 'Start run'}
          </button>
        </div>
        {estimate ? <RunEstimate estimate={estimate} cascade={estimated!.cascade} variantWord={variantWord} /> : null}
        {estimate && budgetUsd !== null ? <BudgetNotes estimate={estimate} budget={budgetUsd} /> : null}
        {estimating.error ? <ErrorNotice error={estimating.error} title="No estimate" /> : null}
        {starting.error ? <ErrorNotice error={starting.error} title="Not started" /> : null}
      </form>
    </Panel>
  );
}
