import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { DecisionsResponse } from '../../../../shared/schemas/decisions-response';
import type { Run } from '../../../../shared/schemas/inspector';
import { SandboxNotice } from '../settings';
import { ErrorNotice, Loading, Panel, ScreenHeader } from '../../ui/components';
import { UNKNOWN } from '../../ui/format';
import { AnswerView } from './AnswerView';
import { runQuery, useCancelRun } from './api';
import { CompareRuns } from './CompareRuns';
import { RunHistory } from './RunHistory';
import { RunRouting } from './RunRouting';
import { costText } from './run-format';

function firstImage(run: Run): string | undefined {
  const state = (run.request as { state?: unknown } | null)?.state;
  if (!Array.isArray(state)) return undefined;
  const part = state.find((p) => (p as { type?: string }).type === 'image_url') as { image_url?: { url: string } } | undefined;
  return part?.image_url?.url;
}

function RunFacts({ run }: { run: Run }) {
  const response = run.response as DecisionsResponse | null;
  return (
    <dl className="facts">
      <dt>Model</dt>
      <dd className="mono">{run.model}</dd>
      <dt>Provider</dt>
      <dd>{response?.provider ?? UNKNOWN}</dd>
      <dt>Tokens</dt>
      <dd>{response ? `${response.usage.input_tokens.toLocaleString('en-US')} in · ${response.usage.output_tokens} out` : UNKNOWN}</dd>
      <dt>Cost</dt>
      <dd>{costText(run)}</dd>
      <dt>Latency</dt>
      <dd>{run.latency_ms !== null ? `${(run.latency_ms / 1000).toFixed(2)} s` : UNKNOWN}</dd>
    </dl>
  );
}

function RunDetail({ id }: { id: string }) {
  const run = useQuery(runQuery(id));
  const cancel = useCancelRun(id);
  if (run.isPending) return <Loading what="the run" />;
  if (run.error) return <ErrorNotice error={run.error} title="Run not found" />;
  const r = run.data;
  const response = r.response as DecisionsResponse | null;
  return (
    <Panel
      title={`Run ${r.label ? `“${r.label}”` : ''} · ${r.status}`}
      aside={
        r.status === 'running' ? (
          <button type="button" className="secondary" onClick={() => cancel.mutate()}>
            Cancel
          </button>
        ) : null
      }
    >
      {r.status === 'running' ? (
        <div
          className="progress"
          role="progressbar"
          aria-valuemin={0}
          aria-valuemax={r.question_count}
          aria-valuenow={r.answered.length}
          aria-label="Questions answered"
        >
          <span className="progress-fill" style={{ width: `${(100 * r.answered.length) / Math.max(1, r.question_count)}%` }} />
          <span className="progress-text">
            {r.answered.length} of {r.question_count} questions answered
          </span>
        </div>
      ) : null}
      {r.error ? <ErrorNotice error={new Error(r.error.message)} title={r.status === 'cancelled' ? 'Cancelled' : `Failed (${r.error.code})`} /> : null}
      <RunFacts run={r} />
      {r.status !== 'running' ? <RunRouting routing={r.routing} /> : null}
      {response ? (
        <div className="answers">
          {Object.entries(response.answers).map(([name, answer]) => (
            <AnswerView key={name} name={name} answer={answer} method={r.methods?.[name]} image={firstImage(r)} />
          ))}
        </div>
      ) : null}
    </Panel>
  );
}

function useRunsQueryString(): { run: string | null; compare: string[] } {
  const read = () => {
    const query = new URLSearchParams(window.location.hash.split('?')[1] ?? '');
    return { run: query.get('run'), compare: (query.get('compare') ?? '').split(',').filter(Boolean) };
  };
  const [value, setValue] = useState(read);
  useEffect(() => {
    const onHash = () => setValue(read());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  return value;
}

export function RunsScreen() {
  const { run, compare } = useRunsQueryString();
  return (
    <>
      <ScreenHeader title="Runs" description="Every run of a question set: typed answers, model, provider, usage, cost and latency." />
      <SandboxNotice />
      {compare.length > 1 ? <CompareRuns ids={compare} /> : null}
      {run ? <RunDetail id={run} /> : null}
      <RunHistory />
    </>
  );
}
