import type { ReactNode } from 'react';
import type { CaptureMonitor } from '../../../../shared/schemas/capture';
import { formatUsd } from '../../../../shared/money/format-usd';
import { integer, UNKNOWN } from '../../ui/format';
import { accuracyText, msText, shareText } from './monitor-text';

function Figure({ term, testId, children }: { term: string; testId: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}

/** The window's requests, cost, latency, escalations, refusals, live accuracy and what waits for review. */
export function MonitorFigures({ data }: { data: CaptureMonitor }) {
  const w = data.window;
  const figures: [term: string, testId: string, shown: ReactNode][] = [
    [
      'Requests captured',
      'requests',
      <>
        {integer(w.requests)} <span className="muted small">(reference {integer(data.reference.requests)})</span>
      </>,
    ],
    ['Cost per request', 'cost', w.cost_per_request === null ? `${UNKNOWN} (no cost known)` : formatUsd(w.cost_per_request)],
    ['Latency p50 / p95', 'latency', `${msText(w.latency_p50_ms)} / ${msText(w.latency_p95_ms)}`],
    ['Escalated', 'escalated', shareText(w.escalated_share)],
    ['Provisional (sent to a person)', 'provisional', shareText(w.provisional_share)],
    ['With a declined question', 'refused', shareText(w.refused_share)],
    ['Live accuracy', 'accuracy', accuracyText(data.accuracy)],
    ['Waiting for review', 'waiting', integer(data.waiting_review)],
  ];
  return (
    <dl className="monitor-figures" aria-label="Live figures">
      {figures.map(([term, testId, shown]) => (
        <Figure key={testId} term={term} testId={`monitor-${testId}`}>
          {shown}
        </Figure>
      ))}
    </dl>
  );
}
