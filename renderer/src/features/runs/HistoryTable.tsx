import type { Run } from '../../../../shared/schemas/inspector';
import { ColumnHeads } from '../../ui/ColumnHeads';
import { ScrollArea } from '../../ui/ScrollArea';
import { costText, latencyText, responseOf } from './run-format';

interface Props {
  runs: Run[];
  /** Runs ticked for comparison, by id. */
  picked: string[];
  onPicked: (update: (picked: string[]) => string[]) => void;
  onRerun: (run: Run) => void;
  rerunning: boolean;
  onDelete: (run: Run) => void;
}

/** The history's rows: a tick to compare, when, model and provider, status, cost, latency, and re-run or delete. */
export function HistoryTable({ runs, picked, onPicked, onRerun, rerunning, onDelete }: Props) {
  return (
    <ScrollArea label="Run history, scrolls sideways">
      <table className="table dense" aria-label="Run history">
        <ColumnHeads names={['Compare', 'Run · started', 'Model · provider', 'Status · answers', 'Cost', 'Latency', 'Actions']} numeric={['Cost', 'Latency']} />
        <tbody>
          {runs.map((r) => (
            <tr key={r.id} data-run={r.id}>
              <td>
                <input
                  type="checkbox"
                  aria-label={`Compare run ${r.label ?? r.id}`}
                  checked={picked.includes(r.id)}
                  onChange={(e) => onPicked((p) => (e.target.checked ? [...p, r.id] : p.filter((x) => x !== r.id)))}
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
                  disabled={r.request === null || rerunning}
                  onClick={() => onRerun(r)}
                  aria-label={`Re-run ${r.label ?? r.id}`}
                >
                  Re-run
                </button>
                <button
                  type="button"
                  className="secondary"
                  disabled={r.status === 'running'}
                  onClick={() => window.confirm(`Delete run ${r.label ?? r.id} from the history?`) && onDelete(r)}
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
  );
}
