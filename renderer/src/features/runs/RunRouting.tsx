import type { RunRouting as Routing } from '../../../../shared/schemas/inspector';

const OUTCOME_WORDS: Record<string, string> = { ok: 'answered' };

/** How a run was routed: the preferences used, each endpoint tried in order (outcome, time, why it was chosen), and those left out. */
export function RunRouting({ routing }: { routing: Routing | null }) {
  if (!routing) return <p className="muted small">This run has no routing record (it ran before routing was recorded, or a remote gateway answered it).</p>;
  const preferences = JSON.stringify(routing.preferences ?? {});
  return (
    <section className="routing" aria-label="How this run was routed">
      <h3>How it was routed</h3>
      <p className="small">
        Preferences: <code>{preferences === '{}' ? 'none (load balancing by price)' : preferences}</code>
        {routing.strategy ? <span className="muted"> · strategy: {routing.strategy}</span> : null}
      </p>
      {routing.attempts.length > 0 ? (
        <ol className="attempt-list" aria-label="Attempts">
          {routing.attempts.map((a, i) => (
            <li key={`${a.tag}-${i}`} className={a.outcome === 'ok' ? 'attempt-ok' : 'attempt-failed'}>
              <strong>{a.provider_name}</strong> <span className="mono small">{a.tag}</span> — {OUTCOME_WORDS[a.outcome] ?? a.outcome}
              {a.ms !== null ? ` in ${(a.ms / 1000).toFixed(2)} s` : ''}
              {a.message ? <span className="muted">: {a.message}</span> : null}
              {a.reason ? <div className="muted small">Why here: {a.reason}</div> : null}
            </li>
          ))}
        </ol>
      ) : (
        <p className="small">No endpoint was tried.</p>
      )}
      {routing.excluded.length > 0 ? (
        <>
          <div className="small">Left out:</div>
          <ul className="attempt-list" aria-label="Endpoints left out">
            {routing.excluded.map((e) => (
              <li key={e.tag}>
                <strong>{e.provider_name}</strong> — {e.reason}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
