import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { EvalRun, RunComparison } from '../../../../shared/schemas/evaluation';
import { call } from '../../transport/transport';
import { formatUsd } from '../../../../shared/money/format-usd';
import { ErrorNotice, Loading } from '../../ui/components';
import { evalKeys } from './api';
import { expectedText } from '../../lib/answer-text';
import { intervalText, value3 } from './metric-format';
import { METRIC_LABELS } from './MetricsTable';
import { QuestionsAsked } from './QuestionsAsked';
import { BreakableName } from '../../ui/BreakableName';
import { ScrollArea } from '../../ui/ScrollArea';
import { ColumnHeads } from '../../ui/ColumnHeads';

const signed = (v: number | null) => (v === null ? '—' : `${v > 0 ? '+' : v < 0 ? '−' : '±'}${Math.abs(v).toFixed(3)}`);

/** Better, worse or not clearly either: the interval of the difference decides, by the metric's direction. */
function verdictOf(m: RunComparison['pairs'][number]['questions'][string]['metrics'][number]): 'better' | 'worse' | 'unclear' {
  if (!m.interval || m.delta === null) return 'unclear';
  const up = m.interval.low > 0;
  const down = m.interval.high < 0;
  if (!up && !down) return 'unclear';
  return up === m.higher_is_better ? 'better' : 'worse';
}

/** Picks the run this one is compared with: an earlier or later run over the same dataset. */
export function BaselinePicker({ run, runs }: { run: EvalRun; runs: readonly EvalRun[] }) {
  const queryClient = useQueryClient();
  const candidates = runs.filter((r) => r.id !== run.id && r.dataset_id === run.dataset_id);
  const set = useMutation({
    mutationFn: (baseline: string | null) => call('evals.setBaseline', { id: run.id, baseline_id: baseline }),
    onSuccess: (fresh) => {
      queryClient.setQueryData(evalKeys.run(run.id), fresh);
      void queryClient.invalidateQueries({ queryKey: evalKeys.runs });
    },
  });
  return (
    <label className="baseline-picker">
      Baseline
      <select value={run.baseline_id ?? ''} onChange={(e) => set.mutate(e.target.value || null)} disabled={set.isPending} aria-label="Baseline run">
        <option value="">{candidates.length === 0 ? 'no other run on this dataset' : 'none'}</option>
        {candidates.map((r) => (
          <option key={r.id} value={r.id}>
            {r.name} · {new Date(r.created_at).toLocaleString()}
          </option>
        ))}
      </select>
      {set.error ? <ErrorNotice error={set.error} title="Baseline not set" /> : null}
    </label>
  );
}

/** Each question's metrics as rows, each model a column: the difference and its interval, both values in the cell's title. */
function Deltas({ comparison }: { comparison: RunComparison }) {
  const first = comparison.pairs[0];
  if (!first) return null;
  const rows = Object.entries(first.questions).flatMap(([question, q]) => q.metrics.map((m) => ({ question, metric: m.metric, n: q.n })));
  return (
    <ScrollArea label="Metric deltas against the baseline, scrolls">
      <table className="table small deltas" aria-label="Metric deltas against the baseline">
        <ColumnHeads names={['Question', 'Metric']}>
          {comparison.pairs.map((pair) => (
            <th key={pair.model} scope="col" className="mono">
              <BreakableName name={pair.model} />
              {pair.baseline_model !== pair.model ? <span className="muted"> vs {pair.baseline_model}</span> : null}
            </th>
          ))}
        </ColumnHeads>
        <tbody>
          {rows.map((row, i) => (
            <tr key={`${row.question}-${row.metric}`}>
              {i === 0 || rows[i - 1]!.question !== row.question ? (
                <th scope="rowgroup" rowSpan={rows.filter((r) => r.question === row.question).length} className="mono">
                  {row.question} <span className="muted">n = {row.n}</span>
                </th>
              ) : null}
              <td title={METRIC_LABELS[row.metric]?.[1]}>{METRIC_LABELS[row.metric]?.[0] ?? row.metric}</td>
              {comparison.pairs.map((pair) => {
                const m = pair.questions[row.question]?.metrics.find((x) => x.metric === row.metric);
                if (!m) return <td key={pair.model} />;
                const verdict = verdictOf(m);
                return (
                  <td
                    key={pair.model}
                    className={`mono delta-${verdict}`}
                    data-delta={`${pair.model} ${row.question} ${row.metric}`}
                    title={`this run ${value3(m.run)}, baseline ${value3(m.baseline)}; ${verdict === 'unclear' ? 'the interval holds 0: no clear change' : `clearly ${verdict}: the interval stays on one side of 0`}`}
                  >
                    {signed(m.delta)} <span className="muted delta-interval">{intervalText(m.interval)}</span>
                    {verdict === 'unclear' ? null : <span className="delta-word"> {verdict}</span>}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollArea>
  );
}

function Changed({ comparison }: { comparison: RunComparison }) {
  if (comparison.changed_total === 0) return <p className="muted">No answer changed between the two runs.</p>;
  const counts = { worse: 0, better: 0, changed: 0 };
  for (const c of comparison.changed) counts[c.change] += 1;
  return (
    <>
      <p className="small">
        {comparison.changed_total.toLocaleString('en-US')} answers changed: {counts.worse} worse (right before, wrong now), {counts.better} better,{' '}
        {counts.changed} changed with neither right
        {comparison.changed_total > comparison.changed.length ? ` (the first ${comparison.changed.length} listed)` : ''}.
      </p>
      <ScrollArea label="Changed answers, scrolls" className="table-scroll changed-list">
        <table className="table small" aria-label="Changed answers">
          <ColumnHeads names={['Change', 'Item', 'Question', 'Expected', 'Baseline → this run']} />
          <tbody>
            {comparison.changed.map((c) => (
              <tr key={`${c.position}-${c.question}-${c.model}`}>
                <td>
                  <span className={`badge change-${c.change}`}>{c.change}</span>
                </td>
                <td className="changed-item" title={c.text}>
                  <span className="mono">{c.id}</span> <span className="muted">{c.text}</span>
                </td>
                <td className="mono">
                  {c.question}
                  {comparison.pairs.length > 1 ? <span className="muted"> · {c.model}</span> : null}
                </td>
                <td>{expectedText(c.expected)}</td>
                <td className="mono">
                  {c.baseline_answer} → <strong>{c.run_answer}</strong>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollArea>
    </>
  );
}

/** Both runs' questions, instructions and preferences side by side: those that differ at first, all on request. */
function AskedSideBySide({ ours, theirs }: { ours: RunComparison['runs'][number]; theirs: RunComparison['runs'][number] }) {
  const [all, setAll] = useState(false);
  const names = [...new Set([...Object.keys(ours.questions), ...Object.keys(theirs.questions)])];
  const differing = names.filter((n) => JSON.stringify(ours.questions[n]) !== JSON.stringify(theirs.questions[n]));
  const shown = (questions: Record<string, unknown>) =>
    all ? questions : Object.fromEntries(Object.entries(questions).filter(([n]) => differing.includes(n)));
  const samePreferences = JSON.stringify(ours.provider) === JSON.stringify(theirs.provider);
  return (
    <>
      <h3 className="small-heading">What each run asked</h3>
      <p className="small">
        {differing.length === 0 ? 'Both runs asked the same questions with the same instructions.' : `Questions that differ: ${differing.join(', ')}.`}{' '}
        {samePreferences ? 'Provider preferences: the same.' : 'Provider preferences differ.'}{' '}
        <button type="button" className="link-button inline" aria-pressed={all} onClick={() => setAll(!all)}>
          {all ? 'Show only what differs' : 'Show every question'}
        </button>
      </p>
      <div className="side-by-side">
        {[ours, theirs].map((r, i) => (
          <QuestionsAsked
            key={r.id}
            title={`${i === 0 ? 'This run' : 'Baseline'}: ${r.name}`}
            models={r.models}
            questions={shown(r.questions)}
            provider={r.provider}
            other={(i === 0 ? theirs : ours).questions}
          />
        ))}
      </div>
    </>
  );
}

/** The run against its baseline: what each sent, side by side, the metric deltas, and the answers that changed. */
export function Comparison({ run }: { run: EvalRun }) {
  const baseline = run.baseline_id;
  const comparison = useQuery({
    queryKey: [...evalKeys.run(run.id), 'compare', baseline, run.done],
    queryFn: ({ signal }) => call('evals.compare', { id: run.id, baseline_id: baseline! }, { signal }),
    enabled: baseline !== null,
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[4] === baseline ? previous : undefined),
  });
  if (baseline === null) return null;
  if (comparison.isPending) return <Loading what="the comparison" />;
  if (comparison.error) return <ErrorNotice error={comparison.error} title="Not compared" />;
  const c = comparison.data;
  const [ours, theirs] = c.runs as [RunComparison['runs'][number], RunComparison['runs'][number]];
  return (
    <div className="comparison">
      <p className="small">
        <strong>{ours.name}</strong> ({formatUsd(ours.spent_usd)}) against its baseline <strong>{theirs.name}</strong> ({formatUsd(theirs.spent_usd)}), over the
        same items. {c.not_compared.length > 0 ? `Not compared (asked by one run only, or as another kind): ${c.not_compared.join(', ')}.` : ''}
      </p>
      <AskedSideBySide ours={ours} theirs={theirs} />
      <h3 className="small-heading">Answers that changed</h3>
      <Changed comparison={c} />
      <h3 className="small-heading">How the metrics moved</h3>
      <p className="muted small">{c.interval_method}. A difference is marked better or worse only when its interval stays on one side of 0.</p>
      <Deltas comparison={c} />
    </div>
  );
}
