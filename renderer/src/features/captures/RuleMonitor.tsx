import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { CaptureMonitor, CaptureRule, MonitorWindow } from '../../../../shared/schemas/capture';
import { formatUsd } from '../../../../shared/money/format-usd';
import { ErrorNotice, Loading } from '../../ui/components';
import { integer, probability, UNKNOWN } from '../../ui/format';
import { ScrollArea } from '../../ui/ScrollArea';
import { captureMonitorQuery } from './api';

type Question = CaptureMonitor['questions'][number];

const WINDOWS: [MonitorWindow, string][] = [
  ['1h', 'last hour'],
  ['24h', 'last day'],
  ['7d', 'last week'],
];

/** A window's answers in a line: each category's share, the largest first ("yes 42.0% · no 58.0%"); boxes by their mean area. */
function sharesText(q: Question['reference'] | Question): string {
  if (!q || q.n === 0) return UNKNOWN;
  if (q.kind === 'box') return q.box ? `mean area ${probability(q.box.area)}, centre ${q.box.x.toFixed(2)}, ${q.box.y.toFixed(2)}` : UNKNOWN;
  return Object.entries(q.shares)
    .sort(([, a], [, b]) => b - a)
    .map(([c, share]) => `${c} ${probability(share)}`)
    .join(' · ');
}

/** How the drift is measured for each kind, said beside its figure. */
const DRIFT_MEASURE: Record<Question['kind'], string> = { noul: 'yes-rate change', choice: 'PSI', score: 'PSI', box: 'move or resize' };

function QuestionRow({ q }: { q: Question }) {
  return (
    <tr>
      <th scope="row">{q.question}</th>
      <td className="small">{sharesText(q)}</td>
      <td className="small">{sharesText(q.reference)}</td>
      <td className="small nowrap">{q.mean_confidence === null ? UNKNOWN : probability(q.mean_confidence)}</td>
      <td className="small nowrap">
        {q.drift === null ? UNKNOWN : `${q.drift.toFixed(3)} ${DRIFT_MEASURE[q.kind]}`}{' '}
        {q.alert ? <span className="badge badge-warn">drift</span> : q.drift === null ? null : <span className="badge badge-ok">steady</span>}
      </td>
    </tr>
  );
}

/** What one rule's live answers look like now beside the week before: shares, confidence, drift with an alert, volume and cost. */
export function RuleMonitor({ rules }: { rules: readonly CaptureRule[] }) {
  const [chosen, setChosen] = useState<string>('');
  const [window, setWindow] = useState<MonitorWindow>('24h');
  const rule = rules.find((r) => r.id === chosen) ?? rules[0]!;
  const ruleId = rule.id;
  // The last answers stay on screen while the next are read (no flash of "loading" every few seconds).
  const monitor = useQuery({ ...captureMonitorQuery(ruleId, window, rule.captured_total), placeholderData: keepPreviousData });
  const data = monitor.data;
  return (
    <section className="capture-monitor" aria-labelledby="capture-monitor-title">
      <h3 id="capture-monitor-title">Monitor</h3>
      <div className="toolbar">
        <label>
          Rule{' '}
          <select value={ruleId} onChange={(e) => setChosen(e.target.value)}>
            {rules.map((r) => (
              <option key={r.id} value={r.id}>
                {r.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Window{' '}
          <select value={window} onChange={(e) => setWindow(e.target.value as MonitorWindow)}>
            {WINDOWS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </div>
      {monitor.isPending ? <Loading what="the rule's live answers" /> : null}
      {monitor.error ? <ErrorNotice error={monitor.error} title="Live answers could not be read" /> : null}
      {data ? (
        <>
          <p className="muted small">
            {integer(data.window.requests)} captured in the window, {integer(data.reference.requests)} in the week before it (the reference); cost per request{' '}
            {data.window.cost_per_request === null ? 'unknown (no captured request had a cost)' : formatUsd(data.window.cost_per_request)}. Figures are of what
            the rule captured: a sample when it samples or reaches its daily cap.
          </p>
          {data.questions.length === 0 ? (
            <p className="muted">Nothing captured in this window.</p>
          ) : (
            <ScrollArea label="Live answers by question, scrolls">
              <table className="table" aria-label="Live answers by question">
                <thead>
                  <tr>
                    <th scope="col">Question</th>
                    <th scope="col">Answers now</th>
                    <th scope="col">Reference</th>
                    <th scope="col">Mean confidence</th>
                    <th scope="col">Drift</th>
                  </tr>
                </thead>
                <tbody>
                  {data.questions.map((q) => (
                    <QuestionRow key={q.question} q={q} />
                  ))}
                </tbody>
              </table>
            </ScrollArea>
          )}
        </>
      ) : null}
    </section>
  );
}
