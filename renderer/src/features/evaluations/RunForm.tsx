import { kindTag, modelKind } from '../../lib/answering';
import type { ModelSummary } from '../../../../shared/schemas/inspector';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { EvalEstimate } from '../../../../shared/schemas/evaluation';
import type { CascadePreset } from '../../../../shared/schemas/cascade-preset';
import { describeCascade, describeCondition } from '../../../../shared/cascade/describe';
import { call } from '../../transport/transport';
import { formatUsd } from '../../../../shared/money/format-usd';
import { ErrorNotice, Panel } from '../../ui/components';
import { modelsQuery } from '../endpoints';
import { setsQuery } from '../question-sets';
import { cascadePresetsQuery, datasetsQuery, evalKeys } from './api';
import { QuestionSetSelect } from './QuestionSetSelect';
import { presetVariant, variantsOf } from './run-variants';
import { clickOnce, once } from '../../lib/send-once';

/** The variant whose one request costs the most at worst, when the budget is below that (the smallest budget that lets every variant send). */
function budgetShortfall(estimate: EvalEstimate | null, budget: number | null): EvalEstimate['per_variant'][number] | null {
  if (!estimate || budget === null || estimate.min_budget_usd === null || budget >= estimate.min_budget_usd) return null;
  return estimate.per_variant.reduce((a, b) => ((b.worst_request_usd ?? 0) > (a.worst_request_usd ?? 0) ? b : a));
}

/** Set × dataset × models, with the estimate shown before anything is sent. */
export function RunForm({ datasetId, onStarted }: { datasetId: string | null; onStarted: (id: string) => void }) {
  const queryClient = useQueryClient();
  const sets = useQuery(setsQuery());
  const datasets = useQuery(datasetsQuery());
  const models = useQuery(modelsQuery());
  const [setId, setSetId] = useState('');
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
  // Moved by every change of the form the estimate depends on: an answer asked for before the change is not shown after it.
  const inputsSeen = useRef(0);
  const inputsChanged = () => {
    inputsSeen.current += 1;
    setEstimated(null);
  };
  const [preferences, setPreferences] = useState('');
  const [runName, setRunName] = useState('');
  // A dataset chosen here or in the Datasets panel, while it exists (it may have been deleted since), else the first.
  const exists = (id: string | null) => id !== null && id !== '' && (datasets.data ?? []).some((d) => d.id === id);
  const effectiveDataset = (exists(dataset) ? dataset : exists(datasetId) ? datasetId : datasets.data?.[0]?.id) ?? '';
  const estimate = estimated?.dataset === effectiveDataset ? estimated.estimate : null;
  const budgetUsd = budget.trim() === '' || !Number.isFinite(Number(budget)) ? null : Number(budget);
  const shortfall = budgetShortfall(estimate, budgetUsd);
  const input = async () => {
    const set = await call('sets.get', { id: setId || sets.data![0]!.id });
    return { request: set.request, dataset_id: effectiveDataset, variants: variantsOf(chosen, preferences, cascades) };
  };
  const estimating = useMutation({
    mutationFn: async () => {
      const asked = inputsSeen.current;
      const asking = await input();
      const fresh = await call('evals.estimate', asking);
      return asked === inputsSeen.current
        ? { dataset: asking.dataset_id, estimate: fresh, cascade: asking.variants.map((v) => v.cascade !== undefined) }
        : null;
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
      onStarted(run.id);
    },
  });
  /**
   * With a budget and no estimate yet, the estimate comes first: a budget below one request's worst
   * case stops the run before it sends anything, so that is said and the run waits for a second Start.
   */
  const submit = async () => {
    if (budgetUsd !== null && estimate === null) {
      const fresh = await estimating.mutateAsync().catch(() => null);
      if (budgetShortfall(fresh?.estimate ?? null, budgetUsd)) return;
    }
    await starting.mutateAsync();
  };
  // A double click on Start starts one run (twice the cost otherwise), and on Estimate asks once.
  const startHeld = useRef(false);
  const estimateHeld = useRef(false);
  const ready = chosen.length + cascades.length > 0 && effectiveDataset !== '' && (sets.data?.length ?? 0) > 0;
  const keyless = (models.data ?? []).filter((m) => m.callable_endpoints === 0);
  const modelCheck = (m: ModelSummary) => (
    <label key={m.id} className="inline-check" title={modelKind(m)}>
      <input
        type="checkbox"
        aria-label={m.id}
        checked={chosen.includes(m.id)}
        onChange={(e) => {
          setChosen(e.target.checked ? [...chosen, m.id] : chosen.filter((c) => c !== m.id));
          inputsChanged();
        }}
      />
      <span className="mono small">{m.id}</span> <span className={`model-kind model-kind-${m.answering}`}>{kindTag(m)}</span>
    </label>
  );
  const callable = (models.data ?? []).filter((m) => m.callable_endpoints > 0);
  const presetCheck = (p: CascadePreset) => {
    const first = p.first_model ?? firstFor[p.name];
    const text = describeCascade(first ?? null, p.model, p.when);
    return (
      <div key={p.name} className="preset-check">
        <label className="inline-check" title={`Preset “${p.name}”`}>
          <input
            type="checkbox"
            aria-label={`${p.name}: ${text}`}
            disabled={first === undefined}
            checked={first !== undefined && chosenPresets.includes(p.name)}
            onChange={(e) => {
              setChosenPresets(e.target.checked ? [...chosenPresets, p.name] : chosenPresets.filter((c) => c !== p.name));
              inputsChanged();
            }}
          />
          <span>
            <strong>{p.name}</strong>: <span className="mono small">{`${first ?? 'a first model'} → ${p.model}`}</span>, when {describeCondition(p.when)}
          </span>
        </label>
        {p.first_model === null ? (
          <span className="preset-first small">
            first model:
            <select
              value={firstFor[p.name] ?? ''}
              aria-label={`First model for ${p.name}`}
              onChange={(e) => {
                setFirstFor({ ...firstFor, [p.name]: e.target.value });
                inputsChanged();
              }}
            >
              <option value="" disabled>
                which model answers first?
              </option>
              {callable.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.id}
                </option>
              ))}
            </select>
          </span>
        ) : null}
        {p.source ? (
          <span className="small muted preset-source" data-testid="preset-source">
            {' '}
            on its curve: {p.source.accuracy === null ? 'metric unknown' : `${(p.source.accuracy * 100).toFixed(1)}%`} at {formatUsd(p.source.cost_per_item)}{' '}
            per item, {(p.source.escalated * 100).toFixed(1)}% escalated
          </span>
        ) : null}
      </div>
    );
  };
  const variantWord = preferences.trim() ? 'preference set' : cascades.length > 0 ? 'variant' : 'model';
  const cascadeRows = estimate ? estimate.per_variant.filter((_, i) => estimated!.cascade[i]) : [];
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
          value={setId}
          onChange={(id) => {
            setSetId(id);
            inputsChanged();
          }}
          label="Question set to evaluate"
        />
        <label>
          Dataset
          <select
            value={effectiveDataset}
            onChange={(e) => {
              setDataset(e.target.value);
              inputsChanged();
            }}
            aria-label="Dataset to evaluate on"
          >
            {(datasets.data ?? []).map((d) => (
              <option key={d.id} value={d.id}>
                {d.name} ({d.items})
              </option>
            ))}
          </select>
        </label>
        <fieldset className="model-choice">
          <legend>Models</legend>
          {(models.data ?? []).filter((m) => m.callable_endpoints > 0).map(modelCheck)}
          {keyless.length > 0 ? (
            <details className="keyless-models">
              <summary className="small muted">{keyless.length} more that need a provider key (Settings)</summary>
              {keyless.map(modelCheck)}
            </details>
          ) : null}
        </fieldset>
        {(presets.data ?? []).length > 0 ? (
          <fieldset className="model-choice preset-choice" aria-label="Cascade presets">
            <legend>Cascade presets</legend>
            <p className="small muted">
              Each a variant: the first model answers every item, and where the condition holds on its answers the second answers it again (both billed).
            </p>
            {(presets.data ?? []).map(presetCheck)}
          </fieldset>
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
            {shortfall ? 'Start anyway' : 'Start run'}
          </button>
        </div>
        {estimate ? (
          <div className="notice estimate" role="status" aria-label="Estimate">
            <dl className="estimate-figures">
              <div>
                <dt>Expected cost</dt>
                <dd className="mono" data-testid="expected-cost">
                  {estimate.cost_usd === null ? 'unknown' : formatUsd(estimate.cost_usd)}
                </dd>
              </div>
              <div>
                <dt>Worst case</dt>
                <dd className="mono" data-testid="worst-case">
                  {estimate.worst_usd === null ? 'unknown' : formatUsd(estimate.worst_usd)}
                </dd>
              </div>
            </dl>
            <span>
              {estimate.calls.toLocaleString('en-US')} requests ({estimate.items} items × {estimate.per_variant.length}{' '}
              {estimate.per_variant.length === 1 ? variantWord : `${variantWord}s`})
              {cascadeRows.length > 0 ? ", and a cascade's second stage where its condition holds" : ''} · about {estimate.input_tokens.toLocaleString('en-US')}{' '}
              input and {estimate.output_tokens.toLocaleString('en-US')} output tokens. Expected: each request as it would be built, counted as its endpoint
              counts tokens, at the prices of the endpoints routing picks, as often as it picks them (
              {estimate.sampled === estimate.items ? 'every item' : `${estimate.sampled} items spread over the dataset`} priced one by one); it is refined from
              the first answered items once the run starts. Worst case: every request tried on every endpoint of its route with the longest replies; the run
              cannot cost more.
            </span>
            <span>
              Per {variantWord}:{' '}
              {estimate.per_variant
                .map((v, i) => {
                  // A cascade's expected cost is unknown by its nature: said once, below.
                  const expected =
                    v.cost_usd !== null
                      ? formatUsd(v.cost_usd)
                      : estimated!.cascade[i]
                        ? 'unknown before the run (below)'
                        : `unknown (${v.cost_note ?? 'not known'})`;
                  return `${v.variant} expected ${expected}, worst ${v.worst_usd === null ? 'unknown' : formatUsd(v.worst_usd)}`;
                })
                .join(' · ')}
            </span>
            <span>
              Worst case of one request{estimate.worst_request_item === null ? '' : ` (item ${estimate.worst_request_item}, the largest in the dataset)`}, what
              a budget holds for it before sending it:{' '}
              {estimate.per_variant
                .map(
                  (v) => `${v.variant} ${v.worst_request_usd === null ? `unknown (${v.worst_request_note ?? 'not known'})` : formatUsd(v.worst_request_usd)}`,
                )
                .join(' · ')}{' '}
              · smallest budget that lets every {variantWord} send a request:{' '}
              {estimate.min_budget_usd === null ? 'unknown' : formatUsd(estimate.min_budget_usd)}
            </span>
          </div>
        ) : null}
        {cascadeRows.length > 0 ? (
          <p className="notice" role="note" aria-label="Cascade estimate">
            {`The expected cost of ${cascadeRows.length === 1 ? 'a cascade' : 'the cascades'} is unknown before the run: how many items the condition sends on to the second model is known only once the first has answered them (the Cascade panel of a run of both models says, per threshold). `}
            {`Its worst case counts both stages for every item: `}
            {cascadeRows.map((v) => `${v.variant} at most ${v.worst_usd === null ? 'unknown' : formatUsd(v.worst_usd)}`).join(' · ')}.
          </p>
        ) : null}
        {shortfall ? (
          <p className="notice notice-warn" role="alert" aria-label="Budget below one request's worst case">
            {`The budget (${formatUsd(budgetUsd!)}) is below what one request of ${shortfall.variant} can cost at worst (${formatUsd(shortfall.worst_request_usd!)}), which the budget holds before sending it: `}
            {`the run would stop at that request without sending it, and send nothing if it comes first. Enter at least ${formatUsd(estimate!.min_budget_usd!)}, or no budget.`}
          </p>
        ) : null}
        {estimate && budget ? (
          <p className="notice notice-warn" role="note" aria-label="Budget and estimate">
            {estimate.cost_usd !== null && Number(budget) < estimate.cost_usd
              ? `The budget (${formatUsd(Number(budget))}) is below this estimate: the run will stop before it ends. `
              : ''}
            {estimate.min_budget_usd === null ? 'The smallest budget that lets every request be sent is unknown (see the worst cases above). ' : ''}
            Each request in flight holds its worst case against the budget (every endpoint of its route tried, the longest replies), so a run stops before its
            budget is spent, and a budget smaller than one request&apos;s worst case sends nothing.
          </p>
        ) : null}
        {estimating.error ? <ErrorNotice error={estimating.error} title="No estimate" /> : null}
        {starting.error ? <ErrorNotice error={starting.error} title="Not started" /> : null}
      </form>
    </Panel>
  );
}
