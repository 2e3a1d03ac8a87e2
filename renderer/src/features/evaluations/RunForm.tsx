import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { EvalEstimate } from '../../../../shared/schemas/evaluation';
import { call } from '../../transport/transport';
import { formatUsd } from '../../lib/money';
import { ErrorNotice, Panel } from '../../ui/components';
import { datasetsQuery, evalKeys, modelsQuery, setsQuery } from './api';
import { QuestionSetSelect } from './QuestionSetSelect';

type Variant = { model: string; label?: string; provider?: Record<string, unknown> };

/** Several models, or one model under each line's provider preferences. */
function variantsOf(models: string[], preferences: string): Variant[] {
  const lines = preferences.split('\n').map((l) => l.trim()).filter(Boolean);
  if (lines.length === 0) return models.map((model) => ({ model }));
  if (models.length !== 1) throw new Error('Provider preferences per line compare one model: choose exactly one');
  return lines.map((line, i) => {
    let parsed: { label?: string; provider?: Record<string, unknown> };
    try {
      parsed = JSON.parse(line) as typeof parsed;
    } catch {
      throw new Error(`Provider preferences, line ${i + 1}: not valid JSON`);
    }
    return { model: models[0]!, label: parsed.label ?? `preferences ${i + 1}`, provider: parsed.provider ?? (parsed as Record<string, unknown>) };
  });
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
  const [estimate, setEstimate] = useState<EvalEstimate | null>(null);
  const [preferences, setPreferences] = useState('');
  const [runName, setRunName] = useState('');
  const effectiveDataset = dataset || datasetId || datasets.data?.[0]?.id || '';
  const input = async () => {
    const set = await call('sets.get', { id: setId || sets.data![0]!.id });
    return { request: set.request, dataset_id: effectiveDataset, variants: variantsOf(chosen, preferences) };
  };
  const estimating = useMutation({ mutationFn: async () => call('evals.estimate', await input()), onSuccess: setEstimate });
  const starting = useMutation({
    mutationFn: async () => call('evals.start', { ...(await input()), concurrency, ...(budget ? { budget_usd: Number(budget) } : {}), ...(runName.trim() ? { name: runName.trim() } : {}) }),
    onSuccess: (run) => {
      void queryClient.invalidateQueries({ queryKey: evalKeys.runs });
      onStarted(run.id);
    },
  });
  const ready = chosen.length > 0 && effectiveDataset !== '' && (sets.data?.length ?? 0) > 0;
  return (
    <Panel title="New evaluation run">
      <form
        className="eval-form"
        onSubmit={(e) => {
          e.preventDefault();
          starting.mutate();
        }}
        onChange={() => setEstimate(null)}
      >
        <QuestionSetSelect value={setId} onChange={setSetId} label="Question set to evaluate" />
        <label>
          Dataset
          <select value={effectiveDataset} onChange={(e) => setDataset(e.target.value)} aria-label="Dataset to evaluate on">
            {(datasets.data ?? []).map((d) => (
              <option key={d.id} value={d.id}>
                {d.name} ({d.items})
              </option>
            ))}
          </select>
        </label>
        <fieldset className="model-choice">
          <legend>Models</legend>
          {(models.data ?? []).map((m) => (
            <label key={m.id} className="inline-check">
              <input type="checkbox" checked={chosen.includes(m.id)} onChange={(e) => setChosen(e.target.checked ? [...chosen, m.id] : chosen.filter((c) => c !== m.id))} />
              <span className="mono small">{m.id}</span>
            </label>
          ))}
        </fieldset>
        <label>
          Provider preferences (optional: with one model, one JSON object per line, each a variant)
          <textarea
            className="mono small"
            rows={2}
            value={preferences}
            onChange={(e) => setPreferences(e.target.value)}
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
          <button type="button" className="secondary" disabled={!ready || estimating.isPending} onClick={() => estimating.mutate()}>
            Estimate
          </button>
          <button type="submit" disabled={!ready || starting.isPending}>
            Start run
          </button>
        </div>
        {estimate ? (
          <p className="notice" role="status" aria-label="Estimate">
            {estimate.calls.toLocaleString('en-US')} requests ({estimate.items} items × {estimate.per_variant.length} {preferences.trim() ? 'preference sets' : estimate.per_variant.length === 1 ? 'model' : 'models'}) · estimate: {estimate.input_tokens.toLocaleString('en-US')} input and{' '}
            {estimate.output_tokens.toLocaleString('en-US')} output tokens · {estimate.cost_usd === null ? 'cost unknown (a price is unknown)' : `about ${formatUsd(estimate.cost_usd)}`}
          </p>
        ) : null}
        {estimate && budget ? (
          <p className="notice notice-warn" role="note" aria-label="Budget and estimate">
            {estimate.cost_usd !== null && Number(budget) < estimate.cost_usd ? `The budget (${formatUsd(Number(budget))}) is below this estimate: the run will stop before it ends. ` : ''}
            Each request in flight holds its worst case against the budget (every endpoint of its route tried, the longest replies), so a run stops before its budget is spent, and a budget
            smaller than one request&apos;s worst case sends nothing.
          </p>
        ) : null}
        {estimating.error ? <ErrorNotice error={estimating.error} title="No estimate" /> : null}
        {starting.error ? <ErrorNotice error={starting.error} title="Not started" /> : null}
      </form>
    </Panel>
  );
}
