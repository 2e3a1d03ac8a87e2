import type { EndpointDetail } from '../../../../shared/schemas/inspector';

const METHOD_LABEL: Record<EndpointDetail['capabilities']['method'], string> = {
  native: 'passed through (native Decisions)',
  logprobs: 'label log-probabilities',
  verbalized: 'stated probabilities',
};
const UNKNOWN_SOURCE = 'unknown (no source gives it)';

/**
 * How the gateway builds requests to each endpoint, and where every value comes from: the row of
 * its provider's capability table (with the document it names), what it refused at run time, and
 * the source of its prices and limits.
 */
export function RequestShape({ details }: { details: EndpointDetail[] }) {
  if (details.length === 0) return null;
  return (
    <div className="table-scroll">
      <table className="table dense" aria-label="How requests are built">
        <thead>
          <tr>
            <th scope="col">Endpoint</th>
            <th scope="col">Answers from</th>
            <th scope="col">Request</th>
            <th scope="col">Values from</th>
            <th scope="col">Refused at run time</th>
          </tr>
        </thead>
        <tbody>
          {details.map((d) => (
            <tr key={d.tag} data-tag={d.tag}>
              <th scope="row">
                <span className="mono">{d.tag}</span>
              </th>
              <td>{METHOD_LABEL[d.capabilities.method]}</td>
              <td className="small">
                <div>
                  <span className="mono">{d.capabilities.token_limit}</span> · temperature {d.capabilities.temperature ? 'sent' : 'not sent'} ·{' '}
                  {d.capabilities.top_logprobs > 0 ? `up to ${d.capabilities.top_logprobs} alternatives` : 'no log-probabilities'}
                </div>
                <div>
                  structured output: {d.capabilities.structured_output} · reasoning: {d.capabilities.reasoning}
                </div>
                <div className="muted" title={d.capabilities.source}>
                  per {shorten(d.capabilities.source)}
                </div>
              </td>
              <td className="small">
                <div>prices: {d.sources.pricing ?? UNKNOWN_SOURCE}</div>
                <div>context: {d.sources.context_length ?? UNKNOWN_SOURCE}</div>
                <div>max output: {d.sources.max_completion_tokens ?? UNKNOWN_SOURCE}</div>
              </td>
              <td className="small">
                {d.refused.length === 0 ? (
                  <span className="muted">nothing</span>
                ) : (
                  <ul className="plain-list">
                    {d.refused.map((r) => (
                      <li key={r.parameter} title={r.message}>
                        <span className="mono">{r.parameter}</span> <span className="muted">since {new Date(r.learned_at).toLocaleString()}</span>
                      </li>
                    ))}
                  </ul>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The first document a capability row names, without the scheme. */
const shorten = (source: string): string => source.split('; ')[0]!.replace(/^https?:\/\//, '');
