import { kindTag, modelKind } from '../../lib/answering';
import type { ModelSummary } from '../../../../shared/schemas/inspector';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { summarizeIssues } from '../../../../shared/contract/result';
import type { EvalEstimate } from '../../../../shared/schemas/evaluation';
import { ProviderPreferencesSchema } from '../../../../shared/schemas/provider-preferences';
import { call } from '../../transport/transport';
import { formatUsd } from '../../../../shared/money/format-usd';
import { ErrorNotice, Panel } from '../../ui/components';
import { datasetsQuery, evalKeys, modelsQuery, setsQuery } from './api';
import { QuestionSetSelect } from './QuestionSetSelect';
import { once } from '../../lib/send-once';

type Variant = { model: string; label?: string; provider?: Record<string, unknown> };

/** Several models, or one model under each line's provider preferences. */
function variantsOf(models: string[], preferences: string): Variant[] {
  // Each non-blank line with its number as the user sees it.
  const lines = preferences.split('\n').flatMap((text, i) => (text.trim() ? [{ text: text.trim(), number: i + 1 }] : []));
  if (lines.length === 0) return models.map((model) => ({ model }));
  if (models.length !== 1) throw new Error('Provider preferences per line compare one model: choose exactly one');
  return lines.map(({ text, number }, i) => {
    let parsed: { label?: string; provider?: Record<string, unknown> };
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      throw new Error(`Provider preferences, line ${number}: not valid JSON`);
    }
    // {"label": ..., "provider": {...}}, or the preferences themselves with an optional label beside them.
    const { label: _label, ...bare } = parsed;
    const provider = parsed.provider ?? (bare as Record<string, unknown>);
    // Checked here, so the problem is named by its line rather than as variants[i] by the core.
    const checked = ProviderPreferencesSchema.safeParse(provider);
    if (!checked.success) throw new Error(`Provider preferences, line ${number}: ${summarizeIssues(checked.error)}`);
    return { model: models[0]!, label: parsed.label ?? `preferences ${i + 1}`, provider };
  });
}

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
  const [concurrency, setConcurrency] = useState(4);
  const [budget, setBudget] = useState('');
  // The estimate with the dataset it was made for: the dataset can also change from the Datasets panel.
  const [estimated, setEstimated] = useState<{ dataset: string; estimate: EvalEstimate } | null>(null);
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
    return { request: set.request, dataset_id: effectiveDataset, variants: variantsOf(chosen, preferences) };
  };
  const estimating = useMutation({
    mutationFn: async () => {
      const asked = inputsSeen.current;
      const asking = await input();
      const fresh = await call('evals.estimate', asking);
      return asked === inputsSeen.current ? { dataset: asking.dataset_id, estimate: fresh } : null;
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
  const ready = chosen.length > 0 && effectiveDataset !== '' && (sets.data?.length ?? 0) > 0;
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
            onClick={() => once(estimateHeld, () => estimating.mutateAsync())}
          >
            Estimate
          </button>
          <button type="submit" disabled={!ready || starting.isPending || estimating.isPending}>
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
              {preferences.trim() ? 'preference sets' : estimate.per_variant.length === 1 ? 'model' : 'models'}) · about{' '}
              {estimate.input_tokens.toLocaleString('en-US')} input and {estimate.output_tokens.toLocaleString('en-US')} output tokens. Expected: each request
              as it would be built, counted as its endpoint counts tokens, at the prices of the endpoints routing picks, as often as it picks them (
              {estimate.sampled === estimate.items ? 'every item' : `${estimate.sampled} items spread over the dataset`} priced one by one); it is refined from
              the first answered items once the run starts. Worst case: every request tried on every endpoint of its route with the longest replies; the run
              cannot cost more.
            </span>
            <span>
              Per {preferences.trim() ? 'preference set' : 'model'}:{' '}
              {estimate.per_variant
                .map(
                  (v) =>
                    `${v.variant} expected ${v.cost_usd === null ? `unknown (${v.cost_note ?? 'not known'})` : formatUsd(v.cost_usd)}, worst ${v.worst_usd === null ? 'unknown' : formatUsd(v.worst_usd)}`,
                )
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
              · smallest budget that lets every {preferences.trim() ? 'preference set' : 'model'} send a request:{' '}
              {estimate.min_budget_usd === null ? 'unknown' : formatUsd(estimate.min_budget_usd)}
            </span>
          </div>
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
