import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Run } from '../../../../shared/schemas/inspector';
import { EmptyState, ErrorNotice, Panel } from '../../ui/components';
import { download } from '../../lib/download';
import { runsListQuery, useDeleteRun, useRerun } from './api';
import { HistoryTable } from './HistoryTable';
import { historyCsv, responseOf } from './run-format';

const matches = (run: Run, search: string) => {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  const text = [run.id, run.label, run.model, responseOf(run)?.provider, run.status, run.error?.message].filter(Boolean).join(' ').toLowerCase();
  return words.every((w) => text.includes(w));
};

/** Past runs: filter and search, compare, re-run, delete, and export as CSV. */
export function RunHistory() {
  const [model, setModel] = useState('');
  const [status, setStatus] = useState<'' | Run['status']>('');
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<string[]>([]);
  const history = useQuery(runsListQuery(model, status));
  const remove = useDeleteRun((id) => setPicked((p) => p.filter((x) => x !== id)));
  const rerun = useRerun();
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
        <HistoryTable runs={shown} picked={picked} onPicked={setPicked} onRerun={rerun.mutate} rerunning={rerun.isPending} onDelete={remove.mutate} />
      ) : null}
    </Panel>
  );
}
