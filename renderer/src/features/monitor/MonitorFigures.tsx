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
  return (
    <dl className="monitor-figures" aria-label="Live figures">
      <Figure term="Requests captured" testId="monitor-requests">
        {integer(w.requests)} <span className="muted small">(reference {integer(data.reference.requests)})</span>
      </Figure>
      <Figure term="Cost per request" testId="monitor-cost">
        {w.cost_per_request === null ? `${UNKNOWN} (no cost known)` : formatUsd(w.cost_per_request)}
      </Figure>
      <Figure term="Latency p50 / p95" testId="monitor-latency">
        {msText(w.latency_p50_ms)} / {msText(w.latency_p95_ms)}
      </Figure>
      <Figure term="Escalated" testId="monitor-escalated">
        {shareText(w.escalated_share)}
      </Figure>
      <Figure term="Provisional (sent to a person)" testId="monitor-provisional">
        {shareText(w.provisional_share)}
      </Figure>
      <Figure term="With a declined question" testId="monitor-refused">
        {shareText(w.refused_share)}
      </Figure>
      <Figure term="Live accuracy" testId="monitor-accuracy">
        {accuracyText(data.accuracy)}
      </Figure>
      <Figure term="Waiting for review" testId="monitor-waiting">
        {integer(data.waiting_review)}
      </Figure>
    </dl>
  );
}
