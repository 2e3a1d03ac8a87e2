import { queryOptions, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { Answer } from '../../../../shared/schemas/answer';
import type { DecisionsResponse } from '../../../../shared/schemas/decisions-response';
import type { Run } from '../../../../shared/schemas/inspector';
import { call } from '../../transport/transport';
import { SandboxNotice } from '../../app/SandboxNotice';
import { EmptyState, ErrorNotice, Loading, Panel, ScreenHeader } from '../../ui/components';
import { UNKNOWN } from '../../ui/format';
import { iou } from '../../../../shared/geometry/iou';
import { AnswerView } from './AnswerView';

const runQuery = (id: string) =>
  queryOptions({
    queryKey: ['runs', 'one', id],
    queryFn: () => call('runs.get', { id }),
    // Poll while it runs, for progress; a finished run does not change.
    refetchInterval: (q) => (q.state.data?.status === 'running' ? 400 : false),
  });

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
      <dd>{response?.usage.cost !== undefined && response ? `$${response.usage.cost.toPrecision(3)}` : 'unknown (a price is not known)'}</dd>
      <dt>Latency</dt>
      <dd>{run.latency_ms !== null ? `${(run.latency_ms / 1000).toFixed(2)} s` : UNKNOWN}</dd>
    </dl>
  );
}

function RunDetail({ id }: { id: string }) {
  const queryClient = useQueryClient();
  const run = useQuery(runQuery(id));
  const cancel = useMutation({ mutationFn: () => call('runs.cancel', { id }), onSuccess: () => queryClient.invalidateQueries({ queryKey: ['runs'] }) });
  if (run.isPending) return <Loading what="the run" />;
  if (run.error) return <ErrorNotice error={run.error} title="Run not found" />;
  const r = run.data;
  const response = r.response as DecisionsResponse | null;
  return (
    <Panel title={`Run ${r.label ? `“${r.label}”` : ''} · ${r.status}`} aside={r.status === 'running' ? <button type="button" className="secondary" onClick={() => cancel.mutate()}>Cancel</button> : null}>
      {r.status === 'running' ? (
        <div className="progress" role="progressbar" aria-valuemin={0} aria-valuemax={r.question_count} aria-valuenow={r.answered.length} aria-label="Questions answered">
          <span className="progress-fill" style={{ width: `${(100 * r.answered.length) / Math.max(1, r.question_count)}%` }} />
          <span className="progress-text">
            {r.answered.length} of {r.question_count} questions answered
          </span>
        </div>
      ) : null}
      {r.error ? <ErrorNotice error={new Error(r.error.message)} title={r.status === 'cancelled' ? 'Cancelled' : `Failed (${r.error.code})`} /> : null}
      <RunFacts run={r} />
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

/** Whether two answers to one question differ enough to point out. */
function differs(a: Answer | undefined, b: Answer | undefined): boolean {
  if (!a || !b || a.type !== b.type) return true;
  if (a.type === 'noul' && b.type === 'noul') return Math.abs(a.noul - b.noul) > 0.05;
  if (a.type === 'choice' && b.type === 'choice') return a.choice !== b.choice;
  if (a.type === 'score' && b.type === 'score') return Math.abs(a.score - b.score) > 0.25;
  if (a.type === 'box' && b.type === 'box') return iou(a.box, b.box) < 0.9;
  return false;
}

const summary = (a: Answer | undefined): string => {
  if (!a) return UNKNOWN;
  if (a.type === 'noul') return `P(true) ${(a.noul * 100).toFixed(1)}%`;
  if (a.type === 'choice') return `${a.choice}${a.confidence !== undefined ? ` (${(a.confidence * 100).toFixed(0)}%)` : ''}`;
  if (a.type === 'score') return `level ${a.score.toFixed(2)}`;
  return `box ${a.box.left.toFixed(2)},${a.box.top.toFixed(2)} → ${a.box.right.toFixed(2)},${a.box.bottom.toFixed(2)}`;
};

function Compare({ ids }: { ids: string[] }) {
  const runs = useQueries({ queries: ids.map((id) => runQuery(id)) });
  const loaded = runs.map((q) => q.data).filter((r): r is Run => r !== undefined);
  const names = [...new Set(loaded.flatMap((r) => Object.keys(((r.request as { questions?: object } | null)?.questions ?? {}) as object)))];
  return (
    <Panel title={`Compare ${ids.length} runs`}>
      <div className="table-scroll">
        <table className="table dense" aria-label="Compared runs">
          <thead>
            <tr>
              <th scope="col">Question</th>
              {loaded.map((r) => (
                <th scope="col" key={r.id}>
                  {r.model}
                  <div className="muted small">
                    {r.status} · {(r.response as DecisionsResponse | null)?.provider ?? ''}
                  </div>
                  <div className="mono small" title="Provider preferences of this run">
                    {JSON.stringify((r.request as { provider?: unknown } | null)?.provider ?? {})}
                  </div>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {names.map((name) => {
              const answers = loaded.map((r) => (r.response as DecisionsResponse | null)?.answers[name]);
              const differ = answers.some((a) => differs(a, answers[0]));
              return (
                <tr key={name} className={differ ? 'differs' : undefined}>
                  <th scope="row">
                    {name}
                    {differ ? <span className="badge badge-sim">differs</span> : null}
                  </th>
                  {answers.map((a, i) => (
                    <td key={loaded[i]!.id}>{summary(a)}</td>
                  ))}
                </tr>
              );
            })}
            <tr>
              <th scope="row">cost</th>
              {loaded.map((r) => {
                const cost = (r.response as DecisionsResponse | null)?.usage.cost;
                return <td key={r.id}>{cost !== undefined ? `$${cost.toPrecision(3)}` : UNKNOWN}</td>;
              })}
            </tr>
            <tr>
              <th scope="row">latency</th>
              {loaded.map((r) => (
                <td key={r.id}>{r.latency_ms !== null ? `${(r.latency_ms / 1000).toFixed(2)} s` : UNKNOWN}</td>
              ))}
            </tr>
          </tbody>
        </table>
      </div>
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
  const [model, setModel] = useState('');
  const [status, setStatus] = useState<'' | Run['status']>('');
  const [picked, setPicked] = useState<string[]>([]);
  const history = useQuery({
    queryKey: ['runs', 'list', model, status],
    queryFn: () => call('runs.list', { ...(model ? { model } : {}), ...(status ? { status } : {}), limit: 100 }),
    // Quick while something runs, so its row catches up with its detail; slow otherwise.
    refetchInterval: (q) => (q.state.data?.some((r) => r.status === 'running') ? 500 : 5_000),
  });
  const models = [...new Set((history.data ?? []).map((r) => r.model))];
  return (
    <>
      <ScreenHeader title="Runs" description="Every run of a question set: typed answers, model, provider, usage, cost and latency." />
      <SandboxNotice />
      {compare.length > 1 ? <Compare ids={compare} /> : null}
      {run ? <RunDetail id={run} /> : null}
      <Panel title="History" aside={picked.length >= 2 ? <a className="button-link" href={`#/runs?compare=${picked.join(',')}`}>Compare {picked.length}</a> : null}>
        <div className="toolbar">
          <label htmlFor="runs-model">Model</label>
          <select id="runs-model" value={model} onChange={(e) => setModel(e.target.value)}>
            <option value="">all</option>
            {models.map((m) => (
              <option key={m}>{m}</option>
            ))}
          </select>
          <label htmlFor="runs-status">Status</label>
          <select id="runs-status" value={status} onChange={(e) => setStatus(e.target.value as '' | Run['status'])}>
            <option value="">all</option>
            <option value="done">done</option>
            <option value="failed">failed</option>
            <option value="cancelled">cancelled</option>
            <option value="running">running</option>
          </select>
        </div>
        {history.data && history.data.length === 0 ? <EmptyState title="No runs yet">Run a question set from Question sets; its answers appear here.</EmptyState> : null}
        {history.data && history.data.length > 0 ? (
          <table className="table dense" aria-label="Run history">
            <thead>
              <tr>
                <th scope="col">Compare</th>
                <th scope="col">Run</th>
                <th scope="col">Model</th>
                <th scope="col">Status</th>
                <th scope="col">Answers</th>
                <th scope="col">Started</th>
              </tr>
            </thead>
            <tbody>
              {history.data.map((r) => (
                <tr key={r.id}>
                  <td>
                    <input type="checkbox" aria-label={`Compare run ${r.label ?? r.id}`} checked={picked.includes(r.id)} onChange={(e) => setPicked((p) => (e.target.checked ? [...p, r.id] : p.filter((x) => x !== r.id)))} />
                  </td>
                  <th scope="row">
                    <a href={`#/runs?run=${r.id}`}>{r.label ?? r.id.slice(0, 12)}</a>
                  </th>
                  <td className="mono small">{r.model}</td>
                  <td>{r.status}</td>
                  <td>
                    {r.answered.length} / {r.question_count}
                  </td>
                  <td className="small">{new Date(r.started_at).toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </Panel>
    </>
  );
}
