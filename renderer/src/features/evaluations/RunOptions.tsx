import type { EvalRun } from '../../../../shared/schemas/evaluation';

interface Props {
  preferences: string;
  onPreferences: (text: string) => void;
  /** the runs over the chosen dataset, any of which can be the baseline */
  runs: readonly EvalRun[];
  baseline: string;
  onBaseline: (id: string) => void;
  runName: string;
  onRunName: (name: string) => void;
  concurrency: number;
  onConcurrency: (n: number) => void;
  budget: string;
  onBudget: (usd: string) => void;
}

/** The New run form's optional parts: provider preferences per variant, a baseline, a name, how many at once, a budget. */
export function RunOptions(p: Props) {
  return (
    <>
      <label>
        Provider preferences (optional: with one model, one JSON object per line, each a variant)
        <textarea
          className="mono small"
          rows={2}
          value={p.preferences}
          onChange={(e) => p.onPreferences(e.target.value)}
          placeholder={'{"label": "cheapest", "provider": {"sort": "price"}}\n{"label": "zdr", "provider": {"zdr": true}}'}
          aria-label="Provider preferences per variant"
        />
      </label>
      <label>
        Baseline (optional)
        <select value={p.baseline} onChange={(e) => p.onBaseline(e.target.value)} aria-label="Baseline for the new run">
          <option value="">none</option>
          {p.runs.map((r) => (
            <option key={r.id} value={r.id}>
              {r.name} · {new Date(r.created_at).toLocaleString()}
            </option>
          ))}
        </select>
      </label>
      <label>
        Run name (optional)
        <input value={p.runName} onChange={(e) => p.onRunName(e.target.value)} maxLength={200} placeholder="the dataset and the models" />
      </label>
      <label>
        Concurrency
        <input type="number" min={1} max={64} value={p.concurrency} onChange={(e) => p.onConcurrency(Number(e.target.value) || 1)} />
      </label>
      <label>
        Budget in USD (optional)
        <input type="number" min={0} step="any" value={p.budget} onChange={(e) => p.onBudget(e.target.value)} placeholder="no cap" aria-label="Budget in USD" />
      </label>
    </>
  );
}
