import { useQueries } from '@tanstack/react-query';
import type { Answer } from '../../../../shared/schemas/answer';
import type { Run } from '../../../../shared/schemas/inspector';
import { Panel } from '../../ui/components';
import { download } from '../../lib/download';
import { probability } from '../../ui/format';
import { runQuery } from './api';
import { compareCsv, costText, differs, latencyText, responseOf, summary } from './run-format';
import { ScrollArea } from '../../ui/ScrollArea';

/** An answer's whole distribution, small: each option or level with its probability. */
function Distribution({ answer }: { answer: Answer | undefined }) {
  if (!answer) return <span className="muted">no answer</span>;
  const entries =
    answer.type === 'choice' || answer.type === 'score'
      ? Object.entries(answer.probabilities ?? {})
      : answer.type === 'noul'
        ? [['true', answer.noul] as const, ['false', 1 - answer.noul] as const]
        : [];
  const top = entries.reduce((best, [, p]) => Math.max(best, p), 0);
  return (
    <div className="mini-dist">
      <div className="mini-summary">{summary(answer)}</div>
      {entries.map(([label, p]) => (
        <div key={label} className={`mini-bar ${p === top ? 'chosen' : ''}`}>
          <span className="mini-label">{answer.type === 'score' ? `level ${label}` : label}</span>
          <svg className="mini-track" viewBox="0 0 100 6" preserveAspectRatio="none" aria-hidden="true">
            <rect className="mini-fill" x="0" y="0" width={Math.max(0.5, p * 100)} height="6" />
          </svg>
          <span className="mini-value">{probability(p)}</span>
        </div>
      ))}
    </div>
  );
}

/** One compared run's column heading: model, status and provider, when, its id, its preferences. */
function RunHeading({ run: r }: { run: Run }) {
  return (
    <th scope="col">
      {r.model}
      <div className="muted small">
        {r.status} · {responseOf(r)?.provider ?? 'no provider'}
      </div>
      <div className="muted small">
        <time dateTime={r.started_at}>{new Date(r.started_at).toLocaleString()}</time> ·{' '}
        <a href={`#/runs?run=${r.id}`} className="mono">
          {r.id.slice(0, 12)}
        </a>
      </div>
      <div className="mono small" title="Provider preferences of this run">
        {JSON.stringify((r.request as { provider?: unknown } | null)?.provider ?? {})}
      </div>
    </th>
  );
}

/** The last rows: each run's tokens, cost and latency. */
function UsageRows({ runs }: { runs: Run[] }) {
  return (
    <>
      <tr>
        <th scope="row">tokens</th>
        {runs.map((r) => {
          const usage = responseOf(r)?.usage;
          return <td key={r.id}>{usage ? `${usage.input_tokens.toLocaleString('en-US')} in · ${usage.output_tokens} out` : '—'}</td>;
        })}
      </tr>
      <tr>
        <th scope="row">cost</th>
        {runs.map((r) => (
          <td key={r.id}>{costText(r)}</td>
        ))}
      </tr>
      <tr>
        <th scope="row">latency</th>
        {runs.map((r) => (
          <td key={r.id}>{latencyText(r)}</td>
        ))}
      </tr>
    </>
  );
}

/** Runs side by side: every answer's distribution, differing answers marked, and usage, cost and latency per run. */
export function CompareRuns({ ids }: { ids: string[] }) {
  const runs = useQueries({ queries: ids.map((id) => runQuery(id)) });
  const loaded = runs.map((q) => q.data).filter((r): r is Run => r !== undefined);
  const names = [...new Set(loaded.flatMap((r) => Object.keys(((r.request as { questions?: object } | null)?.questions ?? {}) as object)))];
  return (
    <Panel
      title={`Compare ${ids.length} runs`}
      aside={
        <button
          type="button"
          className="secondary"
          disabled={loaded.length === 0}
          onClick={() => download('verdict-comparison.csv', compareCsv(loaded, names), 'text/csv')}
        >
          Export CSV
        </button>
      }
    >
      <ScrollArea label="Compared runs, scrolls sideways">
        <table className="table dense compare" aria-label="Compared runs">
          <thead>
            <tr>
              <th scope="col">Question</th>
              {loaded.map((r) => (
                <RunHeading key={r.id} run={r} />
              ))}
            </tr>
          </thead>
          <tbody>
            {names.map((name) => {
              const answers = loaded.map((r) => responseOf(r)?.answers[name]);
              const differ = answers.some((a) => differs(a, answers[0]));
              return (
                <tr key={name} className={differ ? 'differs' : undefined}>
                  <th scope="row">
                    {name}
                    {differ ? <span className="badge badge-sim">differs</span> : null}
                  </th>
                  {answers.map((a, i) => (
                    <td key={loaded[i]!.id}>
                      <Distribution answer={a} />
                    </td>
                  ))}
                </tr>
              );
            })}
            <UsageRows runs={loaded} />
          </tbody>
        </table>
      </ScrollArea>
    </Panel>
  );
}
