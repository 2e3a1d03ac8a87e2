import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { EvalEstimate } from '../../../../shared/schemas/evaluation';
import { call } from '../../transport/transport';
import { ErrorNotice, Panel } from '../../ui/components';
import { modelsQuery } from '../endpoints';
import { setQuery, setsQuery } from '../question-sets';
import { cascadePresetsQuery, datasetFitQuery, datasetsQuery, evalKeys } from './api';
import { QuestionSetSelect } from './QuestionSetSelect';
import { presetVariant, variantsOf } from './run-variants';
import { clickOnce, once } from '../../lib/send-once';
import { BudgetNotes, budgetShortfall, RunEstimate } from './RunEstimate';
import { PresetChoice } from './PresetChoice';
import { DatasetChoice } from './DatasetChoice';
import { ModelChoice } from './ModelChoice';
import { defaultDataset, pairingProblems, setContent } from './dataset-choice';

/** Set × dataset × models, with the estimate shown before anything is sent. */
export function RunForm({ datasetId, onStarted }: { datasetId: string | null; onStarted: (id: string) => void }) {
  const queryClient = useQueryClient();
  const sets = useQuery(setsQuery());
  const datasets = useQuery(datasetsQuery());
  const models = useQuery(modelsQuery());
  const [setId, setSetId] = useState('');
  const effectiveSet = setId || sets.data?.[0]?.id || '';
  const set = useQuery({ ...setQuery(effectiveSet), enabled: effectiveSet !== '' });
  const fits = useQuery({ ...datasetFitQuery(set.data?.request.questions ?? {}), enabled: set.data !== undefined });
  const [dataset, setDataset] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const presets = useQuery(cascadePresetsQuery());
  // Presets ticked, by name, and the first model chosen for each preset that names none.
  const [chosenPresets, setChosenPresets] = useState<string[]>([]);
  const [firstFor, setFirstFor] = useState<Record<string, string>>({});
  // Ticked presets still saved (one may have been deleted since), each as its variant.
  const cascades = (presets.data ?? []).flatMap((p) => {
    const variant = chosenPresets.includes(p.name) ? presetVariant(p, firstFor[p.name]) : null;
    return variant ? [variant] : [];
  });
  const [concurrency, setConcurrency] = useState(4);
  const [budget, setBudget] = useState('');
  // The estimate with the dataset it was made for: the dataset can also change from the Datasets panel.
  // `cascade` marks, per variant in the estimate's order, the cascades among them.
  const [estimated, setEstimated] = useState<{ dataset: string; estimate: EvalEstimate; cascade: boolean[] } | null>(null);
  // The set and dataset whose pairing problems Start has said once: a second Start runs them anyway.
  const [asked, setAsked] = useState<string | null>(null);
  // Moved by every change of the form the estimate depends on: an answer asked for before the change is not shown after it.
  const inputsSeen = useRef(0);
  const inputsChanged = () => {
    inputsSeen.current += 1;
    setEstimated(null);
    setAsked(null);
  };
  const [preferences, setPreferences] = useState('');
  const [runName, setRunName] = useState('');
  // A dataset chosen here while it exists (it may have been deleted since), else one picked in the Datasets panel, else the one the set last ran on.
  const exists = (id: string) => id !== '' && (datasets.data ?? []).some((d) => d.id === id);
  const effectiveDataset = (exists(dataset) ? dataset : defaultDataset(datasets.data ?? [], fits.data, datasetId)) ?? '';
  const fit = fits.data?.find((f) => f.dataset_id === effectiveDataset);
  const chosenDataset = datasets.data?.find((d) => d.id === effectiveDataset);
  const problems =
    set.data && fit && chosenDataset
      ? pairingProblems({
          set: { name: set.data.name, questions: Object.keys(set.data.request.questions), content: setContent(set.data.request) },
          dataset: chosenDataset,
          fit,
        })
      : [];
  const pairing = `${effectiveSet} ${effectiveDataset}`;
  const estimate = estimated?.dataset === effectiveDataset ? estimated.estimate : null;
  const budgetUsd = budget.trim() === '' || !Number.isFinite(Number(budget)) ? null : Number(budget);
  const shortfall = budgetShortfall(estimate, budgetUsd);
  const input = async () => {
    const saved = await call('sets.get', { id: effectiveSet });
    return { request: saved.request, dataset_id: effectiveDataset, variants: variantsOf(chosen, preferences, cascades) };
  };
  const estimating = useMutation({
    mutationFn: async () => {
      const seen = inputsSeen.current;
      const asking = await input();
      // As many in flight as the run will send: how fast requests go decides how long a fault moves traffic for.
      const fresh = await call('evals.estimate', { ...asking, concurrency });
      return seen === inputsSeen.current ? { dataset: asking.dataset_id, estimate: fresh, cascade: asking.variants.map((v) => v.cascade !== undefined) } : null;
    },
    onSuccess: (fresh) => {
      if (fresh) setEstimated(fresh);
    },
  });
  const starting = useMutation({
    mutationFn: async () =>
      call('evals.start', {
        ...(await input()),
        concurrency,
        ...(budget ? { budget_usd: Number(budget) } : {}),
        ...(runName.trim() ? { name: runName.trim() } : {}),
      }),
    onSuccess: (run) => {
      void queryClient.invalidateQueries({ queryKey: evalKeys.runs });
      // The set has now run on this dataset: the form's default for it moves here.
      void queryClient.invalidateQueries({ queryKey: [...evalKeys.datasets, 'fit'] });
      onStarted(run.id);
    },
  });
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
  const ready = chosen.length + cascades.length > 0 && effectiveDataset !== '' && (sets.data?.length ?? 0) > 0 && fits.data !== undefined;
  const callable = (models.data ?? []).filter((m) => m.callable_endpoints > 0);
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
        <QuestionSetSelect
          value={effectiveSet}
          onChange={(id) => {
            setSetId(id);
            inputsChanged();
          }}
          label="Question set to evaluate"
        />
        <DatasetChoice
          datasets={datasets.data ?? []}
          fits={fits.data}
          value={effectiveDataset}
          onChange={(id) => {
            setDataset(id);
            inputsChanged();
          }}
          problems={problems}
          asked={asked === pairing}
        />
        <ModelChoice
          models={models.data ?? []}
          chosen={chosen}
          onChosen={(next) => {
            setChosen(next);
            inputsChanged();
          }}
        />
        {(presets.data ?? []).length > 0 ? (
          <PresetChoice
            presets={presets.data ?? []}
            chosen={chosenPresets}
            onChosen={(names) => {
              setChosenPresets(names);
              inputsChanged();
            }}
            firstFor={firstFor}
            onFirstFor={(next) => {
              setFirstFor(next);
              inputsChanged();
            }}
            callable={callable}
          />
        ) : null}
        <label>
          Provider preferences (optional: with one model, one JSON object per line, each a variant)
          <textarea
            className="mono small"
            rows={2}
            value={preferences}
            onChange={(e) => {
              setPreferences(e.target.value);
              inputsChanged();
            }}
            placeholder={'{"label": "cheapest", "provider": {"sort": "price"}}\n{"label": "zdr", "provider": {"zdr": true}}'}
            aria-label="Provider preferences per variant"
          />
        </label>
        <label>
          Run name (optional)
          <input value={runName} onChange={(e) => setRunName(e.target.value)} maxLength={200} placeholder="the dataset and the models" />
        </label>
        <label>
          Concurrency
          <input type="number" min={1} max={64} value={concurrency} onChange={(e) => setConcurrency(Number(e.target.value) || 1)} />
        </label>
        <label>
          Budget in USD (optional)
          <input type="number" min={0} step="any" value={budget} onChange={(e) => setBudget(e.target.value)} placeholder="no cap" aria-label="Budget in USD" />
        </label>
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
