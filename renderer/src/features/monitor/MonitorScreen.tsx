import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { EmptyState, ErrorNotice, Loading, Panel, ScreenHeader } from '../../ui/components';
import { integer } from '../../ui/format';
import { SandboxNotice } from '../settings';
import { monitorQuery } from './api';
import { LoopActions } from './LoopActions';
import { MonitorControls } from './MonitorControls';
import { MonitorFigures } from './MonitorFigures';
import { driftText, type MonitoredQuestion } from './monitor-text';
import { QuestionTable } from './QuestionTable';
import { useMonitorSubject, type Subject } from './use-monitor-subject';
import type { CaptureMonitor } from '../../../../shared/schemas/capture';
import './monitor.css';

/** The questions whose answers moved past their threshold, said where it is seen and heard. */
function DriftAlert({ questions }: { questions: readonly MonitoredQuestion[] }) {
  const moved = questions.filter((q) => q.alert);
  if (moved.length === 0) return null;
  return (
    <div className="notice notice-warn" role="alert" data-testid="drift-alert">
      <strong>Drift:</strong> {moved.map((q) => `“${q.question}” moved ${driftText(q)}`).join('; ')}. Review a sample of the recent items, and evaluate the set
      again on them.
    </div>
  );
}

/** What the window and the reference are, and what the figures are of. */
function Windows({ data }: { data: CaptureMonitor }) {
  const at = (iso: string) => new Date(iso).toLocaleString();
  return (
    <p className="muted small">
      Window {at(data.window.from)} – {at(data.window.to)}; reference {at(data.reference.from)} – {at(data.reference.to)}. Figures are of what the{' '}
      {data.rule_ids.length === 1 ? 'rule' : `${integer(data.rule_ids.length)} rules`} captured (a sample when a rule samples or reaches its daily cap; a
      request taken by two rules counted once; at most {integer(data.limit)} a window); latency, escalations and declined questions of the{' '}
      {integer(data.window.with_outcome)} captures that kept them.
    </p>
  );
}

function MonitorBody({ subject, data }: { subject: Subject; data: CaptureMonitor }) {
  return (
    <Panel title={`Live answers: ${data.subject.name}`}>
      <Windows data={data} />
      <DriftAlert questions={data.questions} />
      <MonitorFigures data={data} />
      <LoopActions subject={subject} data={data} />
      {data.questions.length === 0 ? <p className="muted">Nothing captured in this window.</p> : <QuestionTable questions={data.questions} />}
    </Panel>
  );
}

/** Live answers of a saved question set (its capture rules together) or of one rule, beside a reference window: drift, accuracy, cost, latency. */
export function MonitorScreen() {
  const choice = useMonitorSubject();
  const monitor = useQuery({
    ...monitorQuery(choice.input ?? { rule_id: '-', window: '24h' }),
    enabled: choice.input !== null,
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <ScreenHeader
        title="Monitor"
        description="What live answers look like now beside a reference window: each question's shares and drift with an alert, live accuracy once people review captured items, cost, latency, escalations and refusals."
      />
      <SandboxNotice />
      {choice.rules.isPending ? <Loading what="the capture rules" /> : null}
      {choice.rules.error ? <ErrorNotice error={choice.rules.error} title="The capture rules could not be read" /> : null}
      {choice.rules.data && choice.subjects.length === 0 ? (
        <Panel title="Nothing watched yet">
          <EmptyState title="No capture rules">
            The monitor reads what capture rules take from live traffic. Make one in <a href="#/settings">Settings → Capture rules</a>, for a saved question set
            to watch all of its requests here.
          </EmptyState>
        </Panel>
      ) : null}
      <MonitorControls choice={choice} />
      {monitor.error ? <ErrorNotice error={monitor.error} title="Live answers could not be read" /> : null}
      {choice.input && monitor.isPending ? <Loading what="the live answers" /> : null}
      {choice.subject && monitor.data ? <MonitorBody subject={choice.subject} data={monitor.data} /> : null}
    </>
  );
}
