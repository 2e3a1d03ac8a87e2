import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { DecisionsRequest } from '../../../../shared/schemas/decisions-request';
import type { Run } from '../../../../shared/schemas/inspector';
import { call } from '../../transport/transport';
import { EmptyState, ErrorNotice, Panel } from '../../ui/components';
import { download } from '../../lib/download';
import { costText, historyCsv, latencyText, responseOf } from './run-format';
import { ScrollArea } from '../../ui/ScrollArea';

const matches = (run: Run, search: string) => {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  const text = [run.id, run.label, run.model, responseOf(run)?.provider, run.status, run.error?.message].filter(Boolean).join(' ').toLowerCase();
  return words.every((w) => text.includes(w));
};

/** Past runs: filter and search, compare, re-run, delete, and export as CSV. */
export function RunHistory() {
  const queryClient = useQueryClient();
  const [model, setModel] = useState('');
  const [status, setStatus] = useState<'' | Run['status']>('');
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<string[]>([]);
  const history = useQuery({
    queryKey: ['runs', 'list', model, status],
    queryFn: () => call('runs.list', { ...(model ? { model } : {}), ...(status ? { status } : {}), limit: 500 }),
    // Quick while something runs, so its row catches up with its detail; slow otherwise.
    refetchInterval: (q) => (q.state.data?.some((r) => r.status === 'running') ? 500 : 5_000),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['runs'] });
  const remove = useMutation({
    mutationFn: (run: Run) => call('runs.delete', { id: run.id }),
    onSuccess: ({ id }) => {
      setPicked((p) => p.filter((x) => x !== id));
      return refresh();
    },
  });
  const rerun = useMutation({
    mutationFn: (run: Run) =>
      call('runs.start', {
        request: run.request as DecisionsRequest,
        ...(run.set_id ? { set_id: run.set_id } : {}),
        ...(run.label ? { label: run.label } : {}),
      }),
    onSuccess: (run) => {
      window.location.hash = `#/runs?run=${run.id}`;
      return refresh();
    },
  });
  const models = [...new Set((history.data ?? []).map((r) => r.model))];
  const shown = (history.data ?? []).filter((r) => matches(r, search));
  return (
    <Panel
      title="History"
      aside={
        <span className="panel-actions">
          {picked.length >= 2 ? (
            <a className="button-link" href={`#/runs?compare=${picked.join(',')}`}>
              Compare {picked.length}
            </a>
          ) : null}
          <button type="button" className="secondary" disabled={shown.length === 0} onClick={() => download('verdict-runs.csv', historyCsv(shown), 'text/csv')}>
            Export CSV
          </button>
        </span>
      }
    >
      <div className="toolbar">
        <label htmlFor="runs-search">Search</label>
        <input id="runs-search" type="search" value={search} placeholder="label, model, provider, id…" onChange={(e) => setSearch(e.target.value)} />
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
      {remove.error ? <ErrorNotice error={remove.error} title="Not deleted" /> : null}
      {rerun.error ? <ErrorNotice error={rerun.error} title="Not started again" /> : null}
      {history.data && history.data.length === 0 ? (
        <EmptyState title="No runs yet">Run a question set from Question sets; its answers appear here.</EmptyState>
      ) : null}
      {history.data && history.data.length > 0 && shown.length === 0 ? <EmptyState title="No run matches">Nothing matches “{search}”.</EmptyState> : null}
      {shown.length > 0 ? (
        <ScrollArea label="Run history, scrolls sideways">
          <table className="table dense" aria-label="Run history">
            <thead>
              <tr>
                <th scope="col">Compare</th>
                <th scope="col">Run · started</th>
                <th scope="col">Model · provider</th>
                <th scope="col">Status · answers</th>
                <th scope="col" className="num">
                  Cost
                </th>
                <th scope="col" className="num">
                  Latency
                </th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((r) => (
                <tr key={r.id} data-run={r.id}>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Compare run ${r.label ?? r.id}`}
                      checked={picked.includes(r.id)}
                      onChange={(e) => setPicked((p) => (e.target.checked ? [...p, r.id] : p.filter((x) => x !== r.id)))}
                    />
                  </td>
                  <th scope="row">
                    <a href={`#/runs?run=${r.id}`}>{r.label ?? r.id.slice(0, 12)}</a>
                    <div className="muted small">{new Date(r.started_at).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' })}</div>
                  </th>
                  <td>
                    <div className="mono small">{r.model}</div>
                    <div className="muted small">{responseOf(r)?.provider ?? '—'}</div>
                  </td>
                  <td>
                    {r.status}
                    <div className="muted small">
                      {r.answered.length} of {r.question_count} answered
                    </div>
                  </td>
                  <td className="num small">{costText(r).replace(/ \(.*\)$/, '')}</td>
                  <td className="num small">{latencyText(r)}</td>
                  <td className="row-actions">
                    <button
                      type="button"
                      className="secondary"
                      disabled={r.request === null || rerun.isPending}
                      onClick={() => rerun.mutate(r)}
                      aria-label={`Re-run ${r.label ?? r.id}`}
                    >
                      Re-run
                    </button>
                    <button
                      type="button"
                      className="secondary"
                      disabled={r.status === 'running'}
                      onClick={() => window.confirm(`Delete run ${r.label ?? r.id} from the history?`) && remove.mutate(r)}
                      aria-label={`Delete run ${r.label ?? r.id}`}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollArea>
      ) : null}
    </Panel>
  );
}
